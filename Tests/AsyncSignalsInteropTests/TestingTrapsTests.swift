import Dispatch
import Foundation
import Testing

@testable import AsyncSignals
@testable import AsyncSignalsInterop

/// The Testing article's traps (issue 27, item 6), each shown as it bites and with its fix.
@MainActor
@Suite("Testing: the traps the Testing article names")
struct TestingTrapsTests {
  @Test("a full buffer(time:count:on:) batch sent from the test's own thread starts untracked work; sent from a block, tracked")
  func fullBatchFromTheTestsThread() async throws {
    let scheduler = TestScheduler()
    let gate = Gate()
    let readings = Subject<Int, Never>()
    let uploads = Locked<[[Int]]>([])
    let subscription = readings.buffer(time: .seconds(1), count: 2, on: scheduler)
      .flattenMap { batch in
        Signal.async {
          await gate.wait()
          return batch
        }
      }
      .subscribeNext { uploads.append($0) }
    // The batch is full at the second value: it is sent at once, on the thread that sent that value (the test's),
    // not from a block of the scheduler, so the upload's task is not tracked, and settle() would not wait for it.
    readings.sendNext(1)
    readings.sendNext(2)
    #expect(scheduler.pendingAsyncWork == 0)
    // The fix: send from a block of the scheduler, where the batch fills and the upload starts.
    scheduler.schedule {
      readings.sendNext(3)
      readings.sendNext(4)
    }
    scheduler.advance()
    #expect(scheduler.pendingAsyncWork == 1)
    gate.open()
    try await scheduler.settle()
    #expect(uploads.value.contains([3, 4]))
    subscription.dispose()
  }

  @Test("a bounded walk started in a test scheduler's block resumes only when that scheduler runs")
  func boundedWalkResumesOnTheTestScheduler() async {
    let scheduler = TestScheduler()
    // Five values into a buffer of two: the walk pauses once, after 2, and the rest fits in the buffer.
    let signal = Signal<Int, Never>.from(0..<5).subscribe(on: scheduler)  // the walk starts in a block of the test scheduler
    let executor = SerialTaskExecutor()
    let subscribed = Gate()
    let received = Locked<[Int]>([])
    let mayTakeMore = Gate()
    let tookThree = Gate()
    let loop = Task(executorPreference: executor) {
      var iterator = signal.values(bufferingPolicy: .bounded(2)).makeAsyncIterator()
      executor.afterCurrentJob { subscribed.open() }  // once the first next() has subscribed and suspended
      while let value = await iterator.next() {
        received.append(value)
        if value == 0 { await mayTakeMore.wait() }  // the walk fills the buffer meanwhile
        if received.value.count == 3 { tookThree.open() }
      }
    }
    await subscribed.wait()
    scheduler.advance()  // the walk: 0 to the waiting loop, 1 and 2 into its buffer, then it pauses
    mayTakeMore.open()
    await tookThree.wait()  // the loop took 0, 1 and 2: room again, and the walk's resumption is scheduled…
    #expect(received.value == [0, 1, 2])
    #expect(scheduler.scheduledCount == 1)  // …on the test scheduler, where it waits until the test runs it
    scheduler.run()  // the walk resumes: 3 and 4, then the end
    await loop.value
    #expect(received.value == Array(0..<5))
  }
}
