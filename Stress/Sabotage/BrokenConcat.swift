import AsyncSignals

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broken twin of `concat` (`--sabotage Concat`), built on the public API: it checks for disposal, then
/// subscribes to the second signal and stores the subscription — two steps, so a disposal in between never
/// disposes the second subscription.
enum BrokenConcat {
  static let description = "a concat that checks for disposal and then subscribes to the second signal (two steps)"

  static func concat(_ first: Signal<Int, StressFailure>, _ second: Signal<Int, StressFailure>) -> Signal<
    Int, StressFailure
  > {
    .create { subscriber in
      let disposed = Flag()
      let secondSubscription = LockedBox<(any Disposable)?>(nil)
      let firstSubscription = first.subscribeNext(
        { subscriber.sendNext($0) }, error: { subscriber.sendError($0) },
        completed: {
          guard !disposed.isSet else { return }
          sched_yield()  // widens the window, as a preemption at this point would
          secondSubscription.value = second.subscribeNext(  // BUG: a disposal since the check is missed
            { subscriber.sendNext($0) }, error: { subscriber.sendError($0) }, completed: { subscriber.sendCompleted() })
        })
      return ActionDisposable {
        disposed.set()
        firstSubscription.dispose()
        secondSubscription.value?.dispose()
      }
    }
  }
}
