import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A scheduler with a virtual clock that moves only when a test advances it.
///
/// Work runs when the clock is advanced past its time, in order of time. Of the work due at the same instant,
/// plain ``schedule(_:)`` work runs first, as RAC's test scheduler ran it, then dated work; each kind in the order
/// it was scheduled. Plain work is due at the virtual time at which it was scheduled. The clock counts whole
/// nanoseconds, so advancing by 1 ms a thousand times lands exactly on one second. ``step()`` and ``step(_:)``
/// run the next block, or the next n, whatever their time, as RAC's `-step` and `-step:` do.
///
/// Any thread may schedule work or advance the clock; one thread advances at a time, and a scheduled block
/// that tries to advance the clock itself stops the program. While it runs a block, the test scheduler is
/// ``Schedulers/current``. Disposing scheduled work removes it, and what it captured, at once.
///
/// ```swift
/// let scheduler = TestScheduler()
/// scheduler.schedule(afterDelay: .seconds(1)) { print("one second") }
/// scheduler.advance(by: .milliseconds(999))  // nothing yet
/// scheduler.advance(by: .milliseconds(1))    // prints "one second"
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACTestScheduler` (`-step`, `-step:`, `-stepAll`, which is ``run()``). RAC's had
///   no clock: it ran dated blocks in date order whenever stepped. ``advance(by:)`` and ``advance(to:)`` add a
///   virtual clock, so that a test can say "one second later".
public final class TestScheduler: Scheduler {
  private struct Item: Sendable {
    let id: UInt64
    let deadline: Int64
    /// Dated work (`after:`, `afterDelay:`, repeating) runs after plain work due at the same instant.
    let isDated: Bool
    let sequence: UInt64
    let repeatInterval: Int64?
    let action: @Sendable () -> Void
  }

  private struct State: Sendable {
    var now: Int64 = 0
    var nextSequence: UInt64 = 0
    var items: [Item] = []  // sorted by (deadline, sequence)
    var advancingThread: pthread_t?

    mutating func insert(
      id: UInt64, deadline: Int64, isDated: Bool, repeatInterval: Int64?, action: @escaping @Sendable () -> Void
    ) {
      let item = Item(
        id: id, deadline: deadline, isDated: isDated, sequence: nextSequence, repeatInterval: repeatInterval,
        action: action)
      nextSequence += 1
      // After every item due before it, or at the same instant and of a kind that runs no later.
      var low = 0
      var high = items.count
      while low < high {
        let middle = (low + high) / 2
        let other = items[middle]
        if other.deadline < deadline || (other.deadline == deadline && (!other.isDated || isDated)) {
          low = middle + 1
        } else {
          high = middle
        }
      }
      items.insert(item, at: low)
    }

    /// Takes the first block due at or before `limit` off the queue, moving the clock to its time (and putting a
    /// repeating block back for its next time); `nil` if none is due.
    mutating func takeFirst(dueBy limit: Int64) -> Item? {
      guard let first = items.first, first.deadline <= limit else { return nil }
      items.removeFirst()
      now = Swift.max(now, first.deadline)
      if let interval = first.repeatInterval {
        let next = first.deadline.addingReportingOverflow(interval)
        if !next.overflow {
          insert(
            id: first.id, deadline: next.partialValue, isDated: true, repeatInterval: interval, action: first.action)
        }
      }
      return first
    }
  }

  private let start: Date
  private let state = LockedState(State())  // guards the clock and the queue of work
  private let advancing = LockedState(())  // held by the one thread advancing the clock
  /// The async work started from this scheduler's blocks, and the `settle` calls waiting for it
  /// (TrackedAsyncWork.swift).
  let asyncWork = LockedState(AsyncWorkState())  // guards the tracked work and the settling waiters

  /// Creates a test scheduler whose clock reads `startDate`.
  ///
  /// ```swift
  /// let scheduler = TestScheduler(startDate: Date(timeIntervalSince1970: 0))
  /// print(scheduler.now.timeIntervalSince1970)  // 0.0
  /// ```
  ///
  /// - Parameter startDate: The virtual time at the start.
  public init(startDate: Date = Date(timeIntervalSinceReferenceDate: 0)) {
    start = startDate
  }

  /// The virtual time.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// scheduler.advance(by: .seconds(90))
  /// print(scheduler.now.timeIntervalSinceReferenceDate)  // 90.0
  /// ```
  public var now: Date {
    date(state.withLock { $0.now })
  }

  /// The number of blocks scheduled and not yet run or disposed.
  ///
  /// ```swift
  /// let tick = scheduler.schedule(afterDelay: .seconds(1)) {}
  /// print(scheduler.scheduledCount)  // 1
  /// tick?.dispose()
  /// print(scheduler.scheduledCount)  // 0
  /// ```
  public var scheduledCount: Int {
    state.withLock { $0.items.count }
  }

  /// Schedules `action` at the current virtual time, after everything already due by then.
  ///
  /// ```swift
  /// scheduler.schedule { print("first") }
  /// scheduler.schedule { print("second") }
  /// scheduler.advance()  // first, second: both due at the current virtual time
  /// ```
  ///
  /// - Returns: A disposable that removes `action` if it has not run.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    enqueue(at: nil, isDated: false, repeatInterval: nil, action)
  }

  /// Schedules `action` at the virtual time `date`, or at the current one if `date` has passed.
  ///
  /// ```swift
  /// scheduler.schedule(after: scheduler.now.addingTimeInterval(5)) { print("five virtual seconds later") }
  /// scheduler.advance(by: .seconds(5))  // prints it
  /// ```
  ///
  /// - Returns: A disposable that removes `action` if it has not run.
  @discardableResult
  public func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    enqueue(at: nanoseconds(date), repeatInterval: nil, action)
  }

  /// Schedules `action` once the virtual clock has moved on by `delay`.
  ///
  /// ```swift
  /// scheduler.schedule(afterDelay: .milliseconds(300)) { print("debounced") }
  /// scheduler.advance(by: .milliseconds(300))  // debounced
  /// ```
  ///
  /// - Returns: A disposable that removes `action` if it has not run.
  @discardableResult
  public func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    enqueue(afterDelay: Swift.max(0, delay.clampedNanoseconds), repeatInterval: nil, action)
  }

  /// Schedules `action` at `date` and then every `interval` of virtual time; `leeway` is ignored.
  ///
  /// ```swift
  /// scheduler.schedule(after: scheduler.now, repeatingEvery: .seconds(1), leeway: .zero) { print("tick") }
  /// scheduler.advance(by: .seconds(2))  // three ticks: at 0, 1 and 2 seconds
  /// ```
  ///
  /// - Returns: A disposable that removes the repeating work.
  @discardableResult
  public func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    precondition(interval > .zero, "TestScheduler.schedule(after:repeatingEvery:leeway:_:): interval must be positive")
    precondition(leeway >= .zero, "TestScheduler.schedule(after:repeatingEvery:leeway:_:): leeway must not be negative")
    return enqueue(at: nanoseconds(date), repeatInterval: interval.clampedNanoseconds, action)
  }

  /// Runs the work due at the current virtual time, including work it schedules for that time.
  ///
  /// ```swift
  /// scheduler.schedule { print("due now") }
  /// scheduler.advance()  // prints "due now"; the clock has not moved
  /// ```
  public func advance() {
    advance(by: .zero)
  }

  /// Moves the clock forward by `interval`, running the work that falls due, in order.
  ///
  /// The clock reads each block's time while the block runs, and the target time afterwards.
  ///
  /// ```swift
  /// scheduler.schedule(afterDelay: .seconds(2)) { print("two seconds") }
  /// scheduler.advance(by: .seconds(1))  // nothing yet
  /// scheduler.advance(by: .seconds(1))  // two seconds
  /// ```
  ///
  /// - Parameter interval: How far to move the clock; must not be negative.
  public func advance(by interval: Duration) {
    precondition(interval >= .zero, "TestScheduler.advance(by:): interval must not be negative")
    let delta = interval.clampedNanoseconds
    runWork { now in now.addingReportingOverflow(delta).overflow ? .max : now + delta }
  }

  /// Moves the clock forward to `date`, running the work that falls due, in order.
  ///
  /// ```swift
  /// scheduler.advance(to: scheduler.now.addingTimeInterval(60))  // runs the next minute's work
  /// ```
  ///
  /// - Parameter date: The new virtual time; must not be earlier than ``now``.
  public func advance(to date: Date) {
    let target = nanoseconds(date)
    runWork { now in
      precondition(target >= now, "TestScheduler.advance(to:): date must not be earlier than now")
      return target
    }
  }

  /// Runs scheduled work, moving the clock as it goes, until nothing is left.
  ///
  /// It does not return while repeating work is scheduled, as RAC's `-stepAll` did not.
  ///
  /// ```swift
  /// scheduler.schedule(afterDelay: .seconds(10)) { print("later") }
  /// scheduler.run()  // later; the clock now reads 10 s on
  /// ```
  public func run() {
    runWork { _ in .max }
  }

  /// Runs the next scheduled block, whatever its time, moving the clock to that time; does nothing if none is.
  ///
  /// Work the block schedules waits for a later step, even when it is due at once.
  ///
  /// ```swift
  /// scheduler.schedule { print("first") }
  /// scheduler.schedule { print("second") }
  /// scheduler.step()  // first
  /// scheduler.step()  // second
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-[RACTestScheduler step]`, which also ran plain `schedule:` blocks before dated
  ///   ones due at the same time.
  public func step() {
    step(1)
  }

  /// Runs the next `count` scheduled blocks, in order, moving the clock to each one's time; stops early when
  /// nothing is left. A repeating block counts once per run.
  ///
  /// ```swift
  /// scheduler.schedule(afterDelay: .seconds(1)) { print("later") }
  /// scheduler.schedule { print("now") }
  /// scheduler.step(2)  // now, later; the clock reads 1 s on
  /// ```
  ///
  /// - Parameter count: How many blocks to run; must not be negative.
  /// - Note: ReactiveCocoa 2.5 `-[RACTestScheduler step:]`.
  public func step(_ count: Int) {
    precondition(count >= 0, "TestScheduler.step(_:): count must not be negative")
    guard count > 0 else { return }
    runWork(blocks: count, method: "TestScheduler.step") { _ in .max }
  }

  // MARK: Internals

  private func date(_ nanoseconds: Int64) -> Date {
    start.addingTimeInterval(TimeInterval(nanoseconds) / 1e9)
  }

  private func nanoseconds(_ date: Date) -> Int64 {
    let seconds = date.timeIntervalSince(start)
    let nanoseconds = (seconds * 1e9).rounded()
    if nanoseconds >= 9.2e18 { return .max }
    if nanoseconds <= -9.2e18 { return .min }
    return Int64(nanoseconds)
  }

  private func enqueue(
    at deadline: Int64?, afterDelay delay: Int64 = 0, isDated: Bool = true, repeatInterval: Int64?,
    _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    let id = state.withLock { state -> UInt64 in
      let id = state.nextSequence
      let due = deadline.map { Swift.max($0, state.now) } ?? (state.now &+ delay)
      state.insert(id: id, deadline: due, isDated: isDated, repeatInterval: repeatInterval, action: action)
      return id
    }
    return ActionDisposable { [weak self] in
      // Removed under the lock; the action (and what it captured) is released after the lock.
      let removed = self?.state.withLock { state -> [Item] in
        guard let index = state.items.firstIndex(where: { $0.id == id }) else { return [] }
        return [state.items.remove(at: index)]
      }
      _ = removed
    }
  }

  private func enqueue(
    afterDelay delay: Int64, repeatInterval: Int64?, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    enqueue(at: nil, afterDelay: delay, repeatInterval: repeatInterval, action)
  }

  private func runWork(
    blocks maxCount: Int = .max, method: String = "TestScheduler.advance", until target: (Int64) -> Int64
  ) {
    let thread = pthread_self()
    checkNotAdvancingFromABlock(thread, method: method)
    advancing.withLock { _ in
      let limit = state.withLock { state -> Int64 in
        state.advancingThread = thread
        return target(state.now)
      }
      var remaining = maxCount
      while remaining > 0, let item = state.withLock({ $0.takeFirst(dueBy: limit) }) {
        remaining -= 1
        performAsCurrent(item.action)
      }
      state.withLock { state in
        if limit != .max { state.now = Swift.max(state.now, limit) }
        state.advancingThread = nil
      }
    }
  }

  private func checkNotAdvancingFromABlock(_ thread: pthread_t, method: String) {
    state.withLock { state in
      if let advancingThread = state.advancingThread {
        precondition(
          pthread_equal(advancingThread, thread) == 0,
          "\(method): a scheduled block cannot advance the scheduler that is running it")
      }
    }
  }

  // MARK: Internals of settle (TestScheduler+AsyncWork.swift)

  /// The virtual time, in nanoseconds since the start.
  var nowNanoseconds: Int64 {
    state.withLock { $0.now }
  }

  /// Runs the first block due at or before `limit`, moving the clock to its time; returns whether one was due.
  func runNextBlock(dueBy limit: Int64, method: String) -> Bool {
    let thread = pthread_self()
    checkNotAdvancingFromABlock(thread, method: method)
    return advancing.withLock { _ in
      let next = state.withLock { state -> Item? in
        let item = state.takeFirst(dueBy: limit)
        if item != nil { state.advancingThread = thread }
        return item
      }
      guard let item = next else { return false }
      performAsCurrent(item.action)
      state.withLock { $0.advancingThread = nil }
      return true
    }
  }

  /// Moves the clock forward to `limit` (nanoseconds), if it is not there already.
  func moveClock(to limit: Int64) {
    state.withLock { $0.now = Swift.max($0.now, limit) }
  }
}
