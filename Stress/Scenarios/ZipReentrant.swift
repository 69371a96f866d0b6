import AsyncSignals

/// One input of a zip: the subscriber of a `create` body, or a subject.
final class ZipSide: Sendable {
  let signal: Signal<Int, StressFailure>
  private let source: Source<Int>?
  private let subject: Subject<Int, StressFailure>?
  private let subscriber = Late<any Subscriber<Int, StressFailure>>()

  init(subject useSubject: Bool) {
    if useSubject {
      let subject = Subject<Int, StressFailure>()
      self.subject = subject
      source = nil
      signal = subject
    } else {
      let source = Source<Int>()
      self.source = source
      subject = nil
      signal = source.signal
    }
  }

  /// Once subscribed: fetches the subscriber to send into (once, so that no lock orders the senders).
  func connect() { subscriber.set(source?.subscriber ?? subject!) }

  func send(_ value: Int) { subscriber.value.sendNext(value) }

  func complete() { subscriber.value.sendCompleted() }

  /// After everything was disposed: what is left, or `nil`. `subscriptions` is how many were made to a
  /// `create` side (each runs its cleanup once).
  func leftover(subscriptions: Int) -> String? {
    if let source, source.cleanups.value != subscriptions {
      return "a create side ran its cleanup \(source.cleanups.value) times for \(subscriptions) subscriptions"
    }
    if let subject, subject.subscriberCount != 0 {
      return "a subject side still has \(subject.subscriberCount) subscribers"
    }
    return nil
  }
}

/// Deadlock shapes around zip: its downstream callback sends into the zip's own sources, subscribes to them,
/// disposes earlier such subscriptions and, at a random pair, disposes the zip itself — while other threads
/// keep sending into both sources. The sources are `create` subscribers on even iterations and subjects on
/// odd ones ("two subjects zipped whose callback sends into both").
///
/// Zip decides under its lock and delivers with it released; a sender that finds a delivery in progress
/// queues its pair and returns. RAC's zip sends while holding its lock, and deadlocks here (the sabotage).
struct ZipReentrantRace: Scenario {
  static let order = "pairs follow the order in which each side delivered its values, none skipped"
  static let afterDispose = "nothing is delivered after the callback that disposed the zip returned"
  static let completion = "without disposal, the zip completes once, having paired every value it could"
  static let cleanup = "every subscription ends: create cleanups run once each, subjects have no subscribers left"

  let name = "ZipReentrant"
  let race = "a zip's callback sends into its sources, subscribes to them and disposes, while others send"
  let invariants = ["no deadlock", Delivery.serial, order, afterDispose, completion, cleanup]
  let sabotage = LockHoldingZip.description

  func threads(requested: Int) -> Int { max(3, requested) }

  private struct CallbackState {
    var extras = 0
    var held: [any Disposable] = []
    var subscriptions = [0, 0]
    var disposedAt: Int?
  }

  func iterate(_ iteration: Iteration) {
    let count = 100
    let extraBase = 800_000
    var random = iteration.random()
    let disposeAt = random.oneIn(3) ? nil : random.below(count)
    let sides = [ZipSide(subject: iteration.number % 2 == 1), ZipSide(subject: iteration.number % 2 == 1)]
    let orders = [SerialState<[Int]>([]), SerialState<[Int]>([])]
    let observed = (0..<2).map { index in
      sides[index].signal.map {
        orders[index].value.append($0)
        return $0
      }
    }
    let zipped =
      iteration.isSabotaged ? LockHoldingZip.zip(observed[0], observed[1]) : observed[0].zip(with: observed[1])
    let subscription = Late<any Disposable>()
    let state = SerialState(CallbackState())
    let recorder = Recorder<(Int, Int)> { recorder, event in
      guard let (left, right) = event.value else { return }
      let position = recorder.log.value.count - 1
      if position == disposeAt {
        subscription.value.dispose()
        state.value.disposedAt = position
        return
      }
      guard left < extraBase && right < extraBase else { return }
      switch (left + right) % 8 {
      case 0, 1:
        let side = (left + right) % 8
        sides[side].send(extraBase + side * 100_000 + state.value.extras)
        state.value.extras += 1
      case 2, 3:
        let side = (left + right) % 8 - 2
        state.value.held.append(sides[side].signal.subscribeNext({ _ in }, error: { _ in }))
        state.value.subscriptions[side] += 1
      case 4:
        if !state.value.held.isEmpty { state.value.held.removeFirst().dispose() }
      default:
        break
      }
    }
    subscription.set(immediately { recorder.subscribe(to: zipped) })
    for side in sides { side.connect() }
    iteration.race { thread, random in
      let side = sides[thread % 2]
      for sequence in 0..<count {
        side.send(thread * 100_000 + sequence)
        if random.oneIn(16) { random.dawdle(2) }
      }
      if thread < 2 { side.complete() }
      iteration.count(count + 1)
    }
    subscription.value.dispose()
    for held in state.value.held { held.dispose() }
    recorder.checkDelivery(iteration)
    let pairs = recorder.values
    let (lefts, rights) = (orders[0].value, orders[1].value)
    if let wrong = pairs.indices.first(where: {
      $0 >= lefts.count || $0 >= rights.count || pairs[$0] != (lefts[$0], rights[$0])
    }) {
      iteration.fail(
        Self.order, "pair #\(wrong) is \(pairs[wrong]); the sides delivered \(lefts.count), \(rights.count)")
    }
    if let disposedAt = state.value.disposedAt {
      iteration.check(
        recorder.events.count == disposedAt + 1, Self.afterDispose,
        "\(recorder.events.count - disposedAt - 1) events after the disposing callback")
    } else if disposeAt == nil {
      iteration.check(
        recorder.isCompleted && pairs.count == min(lefts.count, rights.count), Self.completion,
        "\(pairs.count) pairs of sides that delivered \(lefts.count) and \(rights.count) values, then "
          + String(describing: recorder.events.last))
    }
    for (index, side) in sides.enumerated() {
      if let leftover = side.leftover(subscriptions: 1 + state.value.subscriptions[index]) {
        iteration.fail(Self.cleanup, leftover)
      }
    }
  }
}
