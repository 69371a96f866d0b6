import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The thread-local current scheduler (guarantee 5), as RAC keeps it in the thread dictionary.
///
/// `perform(as:_:)` stores, in a pthread key, the address of an existential that lives on its own stack
/// frame for exactly as long as the block runs; no allocation. Outside any scheduler's block, code running on
/// the main queue has the main queue's scheduler as its current one.
@usableFromInline
enum CurrentScheduler {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "CurrentScheduler: pthread_key_create failed with \(status)")
    return key
  }()

  private static let mainQueue = MainQueueMarker()

  @usableFromInline
  static func perform<Result>(as scheduler: any Scheduler, _ body: () -> Result) -> Result {
    var current = scheduler
    return withUnsafeMutablePointer(to: &current) { pointer in
      let previous = pthread_getspecific(key)
      pthread_setspecific(key, pointer)
      defer { pthread_setspecific(key, previous) }
      return body()
    }
  }

  @usableFromInline
  static var scheduler: (any Scheduler)? {
    if let pointer = pthread_getspecific(key) {
      return pointer.assumingMemoryBound(to: (any Scheduler).self).pointee
    }
    return isOnMainQueue ? QueueScheduler.mainQueueScheduler : nil
  }

  /// Whether `scheduler` would be non-nil, without materialising it.
  @usableFromInline
  static var isSet: Bool {
    pthread_getspecific(key) != nil || isOnMainQueue
  }

  /// Whether the caller runs in a Swift task (on an actor or not): a serial context, as the main thread is for
  /// RAC, where a subscribe body may run at once (guarantee 5).
  @usableFromInline
  static var isInTask: Bool {
    withUnsafeCurrentTask { $0 != nil }
  }

  /// Runs a subscribe body at once where guarantee 5 allows it, and returns its result; returns `nil` without
  /// running it elsewhere, where the caller schedules it on the background scheduler instead.
  ///
  /// At once when a scheduler is current (the body sees that scheduler as current), or when the caller runs in a
  /// task: there the body runs with ``SubscriptionScheduler/shared`` as the current scheduler, so it is never
  /// `nil`, and dated work scheduled on it goes to the background scheduler, as it did when such bodies ran there.
  @inlinable
  static func subscribeAtOnce<Result>(_ body: () -> Result) -> Result? {
    if isSet { return body() }
    if isInTask { return perform(as: SubscriptionScheduler.shared, body) }
    return nil
  }

  @usableFromInline
  static var isOnMainQueue: Bool {
    DispatchQueue.getSpecific(key: mainQueue.key) != nil
  }
}

/// The queue-specific key that marks the main queue.
private final class MainQueueMarker: @unchecked Sendable {
  // guarded by: immutability — `key` is a `let`, an identity token that Dispatch reads thread-safely.
  let key = DispatchSpecificKey<Bool>()

  init() {
    DispatchQueue.main.setSpecific(key: key, value: true)
  }
}
