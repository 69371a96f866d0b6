import AllocationCounter
import Dispatch
import Foundation

/// A running sum that the workloads' subscribers add to.
///
/// An unsafe pointer rather than a stored property, so that adding costs what a user's `sum += value` costs in
/// a closure: no exclusivity check, no lock. Every library's rows use the same type.
final class Accumulator: @unchecked Sendable {
  // guarded by: the serial delivery of the subscriptions that add to it (one event at a time), and the end of
  // the workload (thread join, semaphore or task completion) before `value` is read.
  private let storage: UnsafeMutablePointer<Int>

  init() {
    storage = .allocate(capacity: 1)
    storage.initialize(to: 0)
  }

  deinit {
    storage.deallocate()
  }

  @inline(__always)
  func add(_ value: Int) {
    storage.pointee &+= value
  }

  var value: Int { storage.pointee }
}

/// Returns `value` through a function the optimiser cannot see into, so that the floor rows call their closures
/// as closures instead of inlining the arithmetic away.
@_optimize(none)
@inline(never)
func opaque<T>(_ value: T) -> T {
  value
}

/// Runs `body` in a detached task and blocks the calling thread until it returns. The benchmark thread is not
/// one of the concurrency pool's threads, so this cannot starve the task.
func runBlocking(_ body: @escaping @Sendable () async -> Int) -> Int {
  let result = ResultBox()
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    result.value = await body()
    done.signal()
  }
  done.wait()
  return result.value
}

private final class ResultBox: @unchecked Sendable {
  // guarded by: the semaphore in `runBlocking`: written before `signal()`, read after `wait()`.
  var value = 0
}

/// A thread started now; `join()` waits for it to finish.
struct StartedThread {
  private let done = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () -> Void) {
    let done = self.done
    let thread = Thread {
      body()
      done.signal()
    }
    thread.start()
  }

  func join() {
    done.wait()
  }
}

/// The calling thread's allocation counts (see the AllocationCounter target).
enum Allocations {
  static var isAvailable: Bool { allocation_counter_is_available() != 0 }

  static var count: Int { Int(allocation_counter_current_thread().allocations) }

  /// Net bytes allocated by the calling thread while `body` ran, with byte tracking on.
  static func netBytes<Result>(_ body: () -> Result) -> (result: Result, bytes: Int) {
    allocation_counter_track_bytes(1)
    let before = allocation_counter_current_thread().netBytes
    let result = body()
    let after = allocation_counter_current_thread().netBytes
    allocation_counter_track_bytes(0)
    return (result, Int(after - before))
  }
}
