import AsyncSignals

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The broken twin of `zip(with:)` (`--sabotage Zip`, `ZipNested`, `ZipEarlyEnd`), built on the public API:
/// lock-correct, and its downstream is a `create` subscriber, so delivery stays serial — but it sends each
/// pair after releasing its lock (two producers can overtake each other), and it completes as soon as either
/// side completes, dropping the values still waiting for a partner.
enum BrokenZip {
  static let description =
    "a zip that sends each pair after releasing its lock and completes as soon as either side completes"

  static func zip<A: Sendable, B: Sendable>(_ a: Signal<A, StressFailure>, _ b: Signal<B, StressFailure>)
    -> Signal<(A, B), StressFailure>
  {
    .create { subscriber in
      let buffers = LockedBox<(left: [A], right: [B])>(([], []))
      let left = a.subscribeNext(
        { value in
          let pair = buffers.withLock { buffers -> (A, B)? in
            guard !buffers.right.isEmpty else {
              buffers.left.append(value)
              return nil
            }
            return (value, buffers.right.removeFirst())
          }
          guard let pair else { return }
          sched_yield()  // widens the window, as a preemption at this point would
          subscriber.sendNext(pair)  // BUG: outside the lock, so pairs can overtake each other
        }, error: { subscriber.sendError($0) }, completed: { subscriber.sendCompleted() })  // BUG: too early
      let right = b.subscribeNext(
        { value in
          let pair = buffers.withLock { buffers -> (A, B)? in
            guard !buffers.left.isEmpty else {
              buffers.right.append(value)
              return nil
            }
            return (buffers.left.removeFirst(), value)
          }
          guard let pair else { return }
          sched_yield()
          subscriber.sendNext(pair)
        }, error: { subscriber.sendError($0) }, completed: { subscriber.sendCompleted() })
      return CompoundDisposable([left, right])
    }
  }
}
