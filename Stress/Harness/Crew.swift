import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A fixed set of threads that a scenario releases into its race all at once, iteration after iteration.
///
/// `DispatchQueue.concurrentPerform` runs at most one iteration per core at a time (two here), so four
/// "concurrent" iterations would partly run one after the other. The crew owns real threads instead: each
/// waits for the next race, then spins on a start barrier until every thread has arrived, so that they enter
/// the race together and preemption interleaves them. Waiting for the race to end has a deadline: a race
/// that does not finish in time is reported as a deadlock instead of hanging the run.
final class Crew: @unchecked Sendable {
  // guarded by: `condition` — `generation`, `work`, `running`, `finished` and `shuttingDown`; `arrived` is an
  // atomic. `size` is a `let`.
  typealias Work = @Sendable (_ thread: Int) -> Void

  let size: Int
  private let condition = NSCondition()
  private var generation = 0
  private var work: Work?
  private var running = 0
  private var finished: [Bool]
  private var shuttingDown = false
  private let arrived = Atomic<Int>(0)

  init(size: Int) {
    precondition(size > 0, "Crew: size must be positive")
    self.size = size
    finished = Array(repeating: true, count: size)
    for index in 0..<size {
      let thread = Thread { [self] in loop(index) }
      thread.name = "Stress.crew.\(index)"
      thread.stackSize = 16 << 20  // re-entrant scenarios nest deliveries; ThreadSanitizer widens frames
      thread.start()
    }
  }

  /// Runs `work` on every thread, released together, and waits until all have returned.
  ///
  /// - Returns: The threads still running when `timeout` expired (a deadlock), or `[]`.
  func run(timeout: Double, _ work: @escaping Work) -> [Int] {
    condition.lock()
    defer { condition.unlock() }
    arrived.store(0, ordering: .relaxed)
    self.work = work
    running = size
    finished = Array(repeating: false, count: size)
    generation += 1
    condition.broadcast()
    let deadline = Date(timeIntervalSinceNow: timeout)
    while running > 0 {
      if !condition.wait(until: deadline), running > 0 {
        return finished.indices.filter { !finished[$0] }
      }
    }
    // Released here so that what the race captured can be checked for leaks right after it.
    self.work = nil
    return []
  }

  /// Lets the threads exit once they are idle.
  func shutDown() {
    condition.lock()
    shuttingDown = true
    condition.broadcast()
    condition.unlock()
  }

  private func loop(_ index: Int) {
    var seen = 0
    while let generation = nextGeneration(after: seen) {
      seen = generation
      perform(index)
      condition.lock()
      running -= 1
      finished[index] = true
      if running == 0 { condition.broadcast() }
      condition.unlock()
    }
  }

  private func nextGeneration(after seen: Int) -> Int? {
    condition.lock()
    defer { condition.unlock() }
    while generation == seen, !shuttingDown { condition.wait() }
    return shuttingDown ? nil : generation
  }

  /// Runs the current work; a function of its own so that the closure is released when it returns, before
  /// the thread reports that it has finished.
  private func perform(_ index: Int) {
    condition.lock()
    let work = self.work
    condition.unlock()
    arrived.wrappingAdd(1, ordering: .relaxed)
    while arrived.load(ordering: .relaxed) < size { sched_yield() }
    work?(index)
  }
}
