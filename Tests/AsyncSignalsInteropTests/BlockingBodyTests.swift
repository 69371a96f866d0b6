import AsyncSignals
import AsyncSignalsInterop
import Dispatch
import Foundation
import Synchronization
import Testing

/// A barrier for blocking code: `arrive()` blocks its thread until `parties` threads have arrived, or reports
/// `false` after `timeout` (a safety net, so that a failure is reported rather than hanging the test run).
private final class ThreadBarrier: Sendable {
  private let parties: Int
  private let arrived = Atomic<Int>(0)
  private let release = DispatchSemaphore(value: 0)

  init(parties: Int) {
    self.parties = parties
  }

  func arrive(timeout: DispatchTimeInterval) -> Bool {
    if arrived.add(1, ordering: .acquiringAndReleasing).newValue == parties {
      for _ in 0..<parties { release.signal() }
    }
    return release.wait(timeout: .now() + timeout) == .success
  }
}

@Suite("Blocking subscribe bodies and the cooperative pool")
struct BlockingBodyTests {
  @Test("guarantee 5's remedy: subscribe(on:) moves blocking create bodies off the tasks that subscribe")
  func subscribeOnMovesBlockingBodiesOffThePool() async {
    // More blocking bodies than the cooperative pool has threads, each waiting until all of them run at once:
    // run at once in the subscribing tasks (guarantee 5), they would hold every thread of the pool and never
    // all start. `subscribe(on:)` gives each its own serial queue, as RAC's subscription scheduler did.
    let count = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
    let barrier = ThreadBarrier(parties: count)
    let blocking = Signal<Bool, Never>.create { subscriber in
      subscriber.sendNext(barrier.arrive(timeout: .seconds(30)))  // a synchronous wait, as a blocking API would
      subscriber.sendCompleted()
      return nil
    }
    let allMet = await withTaskGroup(of: Bool?.self) { group in
      for index in 0..<count {
        group.addTask { await blocking.subscribe(on: QueueScheduler(name: "blocking \(index)")).first() }
      }
      var results: [Bool?] = []
      for await result in group { results.append(result) }
      return results
    }
    #expect(allMet == Array(repeating: true, count: count))
  }
}
