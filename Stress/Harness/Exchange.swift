import AsyncSignals
import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// How harness threads hand things to each other during a race (subscribers, tasks, "done" signals) without
// ordering the threads that use them more than the hand-off itself requires.

/// A blocking first-in, first-out queue between harness threads.
final class Mailbox<Item: Sendable>: @unchecked Sendable {
  // guarded by: `condition`
  private let condition = NSCondition()
  private var items: [Item] = []

  init() {}

  func post(_ item: Item, count: Int = 1) {
    condition.lock()
    items.append(contentsOf: repeatElement(item, count: count))
    condition.broadcast()
    condition.unlock()
  }

  func take() -> Item {
    condition.lock()
    defer { condition.unlock() }
    while items.isEmpty { condition.wait() }
    return items.removeFirst()
  }

  /// The oldest item, or `nil` at once if there is none.
  func poll() -> Item? {
    condition.lock()
    defer { condition.unlock() }
    return items.isEmpty ? nil : items.removeFirst()
  }
}

/// Values that one thread publishes, each once, in index order, for other threads to read as they appear.
///
/// Publishing is a release store of the count and reading an acquire load, so a reader is ordered after the
/// writer of what it reads, but readers are never ordered with each other (a lock would order them, and hide
/// from ThreadSanitizer a library that fails to).
final class Slots<Value: Sendable>: @unchecked Sendable {
  // guarded by: `published` — slot `i` is written once, by the one publishing thread, before the release store
  // that makes `published` exceed `i`; readers read a slot only below the count they loaded (acquiring). The
  // slots are raw memory, not a Swift array: writing one element of an array is an access to the whole array.
  private let slots: UnsafeMutablePointer<Value?>
  let capacity: Int
  private let published = Atomic<Int>(0)

  init(capacity: Int) {
    self.capacity = capacity
    slots = .allocate(capacity: capacity)
    slots.initialize(repeating: nil, count: capacity)
  }

  deinit {
    slots.deinitialize(count: capacity)
    slots.deallocate()
  }

  /// Publishes the next value. Only one thread may publish.
  func publish(_ value: Value) {
    let index = published.load(ordering: .relaxed)
    precondition(index < capacity, "Slots: more values published than the capacity")
    slots[index] = value
    published.store(index + 1, ordering: .releasing)
  }

  /// How many values are published.
  var count: Int { published.load(ordering: .acquiring) }

  /// The value at `index`, which must be below `count` as the caller loaded it.
  subscript(index: Int) -> Value {
    guard let value = slots[index] else { preconditionFailure("Slots: read before it was published") }
    return value
  }

  /// The newest published value, if any.
  var latest: (index: Int, value: Value)? {
    let count = self.count
    return count == 0 ? nil : (count - 1, self[count - 1])
  }
}

/// Spins (yielding) until `condition` holds or `seconds` have passed; answers whether it holds.
func waitUntil(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
  let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
  while !condition() {
    if ContinuousClock.now >= deadline { return condition() }
    sched_yield()
  }
  return true
}

/// Waits until the library's background scheduler has run (or skipped) every block scheduled so far — the
/// `create` bodies and replays of subscriptions made with no current scheduler. It is a serial queue, so a body
/// scheduled now runs after them.
func drainBackgroundScheduler(_ iteration: Iteration) {
  iteration.race(withCurrentScheduler: false) { thread, _ in
    guard thread == 0 else { return }
    let ran = NSCondition()
    let done = Flag()
    let subscription = Signal<Int, StressFailure>.create { _ in
      ran.lock()
      done.set()
      ran.broadcast()
      ran.unlock()
      return nil
    }.subscribeNext({ _ in }, error: { _ in })
    ran.lock()
    while !done.isSet { ran.wait() }
    ran.unlock()
    subscription.dispose()
  }
}

/// Where `run` is in `order`, for each value.
func positions<Value: Hashable>(of order: [Value]) -> [Value: Int] {
  Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
}

/// Checks that `run` is a gap-free, duplicate-free, in-order slice of `order`; returns what is wrong, or `nil`.
func sliceProblem<Value: Hashable>(_ run: [Value], of order: [Value], positions: [Value: Int]) -> String? {
  guard let first = run.first else { return nil }
  guard let start = positions[first] else { return "value \(first) was never sent" }
  for (offset, value) in run.enumerated() {
    let index = start + offset
    guard index < order.count, order[index] == value else {
      let due = index < order.count ? "\(order[index])" : "nothing"
      return "value #\(offset) is \(value) where the subject's order has \(due) (the run starts at #\(start))"
    }
  }
  return nil
}

/// Counts events that other threads (or tasks) report; a harness thread waits until enough have happened.
final class Latch: @unchecked Sendable {
  // guarded by: `condition`
  private let condition = NSCondition()
  private var count = 0

  init() {}

  func signal() {
    condition.lock()
    count += 1
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until `signal()` has been called `target` times, or `seconds` have passed; answers whether it was.
  func wait(for target: Int, seconds: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    condition.lock()
    defer { condition.unlock() }
    while count < target {
      if !condition.wait(until: deadline) { return count >= target }
    }
    return true
  }
}
