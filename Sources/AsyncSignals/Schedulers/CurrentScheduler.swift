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
