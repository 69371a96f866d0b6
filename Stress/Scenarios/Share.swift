import AsyncSignals
import Synchronization

/// `share()`'s reference count under concurrent subscriptions and disposals: it connects on the first subscriber,
/// disconnects after the last, and connects again on the next — so connecting and disconnecting race each other.
///
/// Every thread but the last subscribes to the shared signal and disposes again, rounds of it, at random moments, so
/// that the count falls to 0 and rises again many times (half the rounds with `share(replay: 1)`). The upstream is a
/// `create` body that counts its live subscriptions and publishes its subscriber; the last thread sends into whichever
/// connection is live, each value tagged with its connection, in order. Connections must never overlap (a share that
/// connected twice, or kept a connection past its last subscriber, would), and once everybody has gone none may be
/// left. A subscriber may find the connection it joined still being made on another thread (its source subscription
/// follows), so "live while subscribed" is not checked.
struct ShareRace: Scenario {
  static let oneLive = "at most one upstream subscription is live at a time: connections never overlap"
  static let released = "once every subscriber has gone, no upstream subscription is live"
  static let run = "each subscriber receives values of one connection only, in order, without gaps"

  let name = "Share"
  let race = "threads subscribe to share() and dispose at random, so that it connects, disconnects and reconnects"
  let invariants = ["no deadlock", oneLive, released, run, Delivery.serial]
  let sabotage = BrokenShare.description

  func threads(requested: Int) -> Int { max(3, requested) }

  /// Values carry their connection: `connection * stride + index`.
  static let stride = 1_000_000

  func iterate(_ iteration: Iteration) {
    let active = Tally()
    let connections = Tally()
    let live = LockedBox<(connection: Int, subscriber: (any Subscriber<Int, StressFailure>)?)>((0, nil))
    let upstream = Signal<Int, StressFailure>.create { subscriber in
      let connection = connections.increment()
      let now = active.increment()
      iteration.check(now == 1, Self.oneLive, "\(now) upstream subscriptions live at once")
      live.withLock { $0 = (connection, subscriber) }
      return ActionDisposable {
        live.withLock { if $0.connection == connection { $0.subscriber = nil } }
        active.decrement()
      }
    }
    let replay = iteration.number % 2
    let shared = iteration.isSabotaged ? BrokenShare.share(upstream) : upstream.share(replay: replay)
    let subscribers = iteration.threads - 1
    let finished = Tally()
    let recorders = (0..<iteration.threads).map { _ in Owned<[Recorder<Int>]>([]) }
    iteration.race { thread, random in
      if thread == subscribers {
        var sent = [Int: Int]()
        var operations = 0
        while finished.value < subscribers {
          let (connection, subscriber) = live.value
          if let subscriber {
            let index = sent[connection, default: 0]
            sent[connection] = index + 1
            subscriber.sendNext(connection * Self.stride + index)
            operations += 1
          }
          random.dawdle(2)
        }
        iteration.count(operations)
        return
      }
      for _ in 0..<12 {
        let recorder = Recorder<Int>()
        recorders[thread].value.append(recorder)
        let subscription = recorder.subscribe(to: shared)
        random.dawdle(16)
        subscription.dispose()
        random.dawdle(8)
      }
      finished.increment()
      iteration.count(24)
    }
    iteration.check(active.value == 0, Self.released, "\(active.value) upstream subscriptions live after the race")
    for recorder in recorders.flatMap(\.value) {
      recorder.checkDelivery(iteration)
      let values = recorder.values
      guard let first = values.first else { continue }
      let expected = (0..<values.count).map { first + $0 }
      if values.contains(where: { $0 / Self.stride != first / Self.stride }) || values != expected {
        iteration.fail(Self.run, "a subscriber received \(values.prefix(8))…")
        break
      }
    }
  }
}
