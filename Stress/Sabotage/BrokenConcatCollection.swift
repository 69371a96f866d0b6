import AsyncSignals

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broken twin of `Signal.concat` (`--sabotage ConcatCollection`), built on the public API: a trampoline
/// whose hand-off takes two steps. A completion looks whether the subscribing thread is still in `attach` and, if
/// so, leaves the next subscription to it; the subscribing thread, once `attach` returns, looks whether its signal
/// completed and then says it has left `attach`. A completion between those two looks is left to nobody: the
/// concatenation stalls.
enum BrokenConcatCollection {
  static let description =
    "a Signal.concat whose completion and returning attach decide the hand-off in two steps (a lost wake-up)"

  static func concat(_ signals: [Signal<Int, StressFailure>]) -> Signal<Int, StressFailure> {
    .create { subscriber in
      let run = Run(signals, subscriber)
      run.start(at: 0)
      return run.subscriptions
    }
  }

  private final class Run: Sendable {
    let signals: [Signal<Int, StressFailure>]
    let subscriber: any Subscriber<Int, StressFailure>
    let subscriptions = CompoundDisposable()
    let attaching = LockedBox(false)
    let completedWhileAttaching = LockedBox(false)

    init(_ signals: [Signal<Int, StressFailure>], _ subscriber: any Subscriber<Int, StressFailure>) {
      self.signals = signals
      self.subscriber = subscriber
    }

    func start(at first: Int) {
      var index = first
      while index < signals.count, !subscriptions.isDisposed {
        attaching.value = true
        completedWhileAttaching.value = false
        let next = index + 1
        subscriptions.add(
          signals[index].subscribeNext(
            { [subscriber] in subscriber.sendNext($0) }, error: { [subscriber] in subscriber.sendError($0) },
            completed: { [self] in
              if attaching.value {
                completedWhileAttaching.value = true
              } else {
                start(at: next)
              }
            }))
        guard completedWhileAttaching.value else {
          sched_yield()  // widens the window, as a preemption at this point would
          attaching.value = false  // BUG: a completion since the look above is left to nobody
          return
        }
        index = next
      }
      if index == signals.count { subscriber.sendCompleted() }
    }
  }
}
