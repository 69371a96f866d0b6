import AsyncSignals
import Foundation

/// The broken twin of `zip(with:)` for deadlock shapes (`--sabotage ZipReentrant`): RAC 2.5's zip, which
/// sends each pair while holding its (recursive) lock. A callback that sends into the other source then waits
/// for that source's delivery lock, held by a thread that waits for this lock: a lock-order deadlock, which
/// the watchdog must report.
enum LockHoldingZip {
  static let description = "RAC 2.5's zip, which sends each pair while holding its lock (expect a deadlock)"

  private final class Buffers: @unchecked Sendable {
    // guarded by: `lock`
    let lock = NSRecursiveLock()
    var left: [Int] = []
    var right: [Int] = []
    var completed = false
  }

  static func zip(_ a: Signal<Int, StressFailure>, _ b: Signal<Int, StressFailure>) -> Signal<
    (Int, Int), StressFailure
  > {
    .create { subscriber in
      let buffers = Buffers()
      @Sendable func received(left: Int?, right: Int?) {
        buffers.lock.lock()
        defer { buffers.lock.unlock() }
        if let left { buffers.left.append(left) }
        if let right { buffers.right.append(right) }
        while !buffers.left.isEmpty && !buffers.right.isEmpty {
          subscriber.sendNext((buffers.left.removeFirst(), buffers.right.removeFirst()))  // BUG: under the lock
        }
      }
      @Sendable func completed() {
        buffers.lock.lock()
        defer { buffers.lock.unlock() }
        subscriber.sendCompleted()
      }
      let left = a.subscribeNext(
        { received(left: $0, right: nil) }, error: { subscriber.sendError($0) }, completed: { completed() })
      let right = b.subscribeNext(
        { received(left: nil, right: $0) }, error: { subscriber.sendError($0) }, completed: { completed() })
      return CompoundDisposable([left, right])
    }
  }
}
