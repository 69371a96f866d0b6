#if canImport(Glibc)
import Glibc
#endif

/// A queue of at most `capacity` values between two threads, as one writes it by hand: a pthread mutex, a condition
/// variable per side, and batch drains — the consumer takes everything there is at once, so that it pays for the lock
/// once per batch, not once per value. The hand-written baseline of (a), (b), (g) and (h).
///
/// A producer that finds it full waits; a consumer that finds it empty waits. Each side signals the other only if the
/// other is waiting, which it says under the lock before it waits, so no wake-up is lost and none is wasted.
final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
  // guarded by: `mutex` — `items`, `finished`, `consumerWaits` and `producerWaits`, read and written only with it
  // held; the pointers are `let`s, allocated in `init` and freed in `deinit`, when no thread uses the queue.
  private var items: [Element] = []
  private var finished = false
  private var consumerWaits = false
  private var producerWaits = false
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let notEmpty = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private let notFull = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    items.reserveCapacity(capacity)
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(notEmpty, nil)
    pthread_cond_init(notFull, nil)
  }

  deinit {
    pthread_cond_destroy(notFull)
    pthread_cond_destroy(notEmpty)
    pthread_mutex_destroy(mutex)
    notFull.deallocate()
    notEmpty.deallocate()
    mutex.deallocate()
  }

  /// Adds `element`, waiting while the queue is full.
  func push(_ element: Element) {
    pthread_mutex_lock(mutex)
    while items.count >= capacity {
      producerWaits = true
      pthread_cond_wait(notFull, mutex)
    }
    producerWaits = false
    items.append(element)
    let wake = consumerWaits
    pthread_mutex_unlock(mutex)
    // Outside the lock, so that the consumer does not wake into a mutex still held; it checks `items` again.
    if wake { pthread_cond_signal(notEmpty) }
  }

  /// No more values: the consumer's drain returns false once it has taken the rest.
  func finish() {
    pthread_mutex_lock(mutex)
    finished = true
    let wake = consumerWaits
    pthread_mutex_unlock(mutex)
    if wake { pthread_cond_signal(notEmpty) }
  }

  /// Waits for values, then moves all of them into `batch`, which must be empty (its capacity is kept, and handed to
  /// the producer's side in exchange, so that batches allocate nothing). False once the queue is finished and empty.
  func drain(into batch: inout [Element]) -> Bool {
    pthread_mutex_lock(mutex)
    while items.isEmpty && !finished {
      consumerWaits = true
      pthread_cond_wait(notEmpty, mutex)
    }
    consumerWaits = false
    guard !items.isEmpty else {
      pthread_mutex_unlock(mutex)
      return false
    }
    swap(&items, &batch)
    let wake = producerWaits
    pthread_mutex_unlock(mutex)
    if wake { pthread_cond_signal(notFull) }
    return true
  }
}
