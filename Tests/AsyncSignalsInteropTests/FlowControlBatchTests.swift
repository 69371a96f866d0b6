import AsyncSignals
import AsyncSignalsInterop
import Testing

@testable import AsyncSignalsInterop

// A `.bounded(n)` loop takes what is buffered in one go into a private batch, as the unbounded loop does (issue 29,
// item 5), and the batch counts against the bound until the loop has taken it: what the source produced is never more
// than `n` ahead of what the loop has taken, and a paused source resumes once the batch and the buffer together are
// down to half, while the batch is still being taken.

/// A weak reference to a value a loop holds, to see when it is released.
private struct WeakTracked: Sendable {
  weak var object: Tracked?
  init(_ object: Tracked) { self.object = object }
}

@Suite("Flow control: a bounded loop takes in batches")
struct FlowControlBatchTests {
  @Test("a bounded loop takes what is buffered in one go; the batch counts against the bound and reopens it at half")
  func batchCountsAgainstTheBound() async {
    let produced = Locked(0)
    let values = Signal<Int, Never>.from(0..<100).doNext { _ in produced.increment() }
      .values(bufferingPolicy: .bounded(8))
    var iterator = values.makeAsyncIterator()
    var taken: [Int] = []
    /// Takes one value, and checks that the walk (which never pauses on its own) is no more than 8 ahead of it.
    func take(_ iterator: inout SignalSequence<Int, Never>.Iterator) async {
      if let value = await iterator.next() { taken.append(value) }
      #expect(produced.value - taken.count <= 8, "after taking \(taken.count)")
    }
    await take(&iterator)  // subscribes: the walk buffers 8 and pauses; 0 is returned, 1 to 7 move to the batch
    #expect(produced.value == 8)
    #expect(iterator.batchedCount == 7)
    for _ in 0..<3 { await take(&iterator) }  // 4 held, all in the batch: half of 8
    #expect(produced.value == 8 + 4)  // resumed while the batch was being taken, on this task, until 8 held again
    #expect(iterator.batchedCount == 4)
    for _ in 0..<3 { await take(&iterator) }  // 1 in the batch, 4 buffered: 5 held
    #expect(produced.value == 12)
    await take(&iterator)  // the batch is empty, 4 buffered: half; the 4 move to the batch
    #expect(produced.value == 16)
    #expect(iterator.batchedCount == 4)
    while taken.count < 100 { await take(&iterator) }
    #expect(await iterator.next() == nil)
    #expect(taken == Array(0..<100))
    #expect(iterator.highWaterMark == 8)
    #expect(values.overflowCount == 0)
  }

  @Test("an async producer that never pauses on its own stays within the bound of a loop that takes in batches")
  func asyncProducerStaysWithinTheBound() async {
    let sent = Locked(0)
    let signal = Signal<Int, Never>.async { subscriber in
      for value in 0..<10_000 {
        await subscriber.send(value)
        sent.increment()
      }
    }
    let values = signal.values(bufferingPolicy: .bounded(16))
    var iterator = values.makeAsyncIterator()
    var received: [Int] = []
    var furthestAhead = 0
    var batched = 0
    while let value = await iterator.next() {
      received.append(value)
      furthestAhead = max(furthestAhead, sent.value - received.count)
      batched = max(batched, iterator.batchedCount)
      if received.count.isMultiple(of: 100) { await Task.yield() }
    }
    #expect(received == Array(0..<10_000))  // in order, none lost, none twice
    #expect(furthestAhead <= 16)
    #expect(iterator.highWaterMark <= 16 && values.overflowCount == 0)
    #expect(batched <= 16)
  }

  @Test("a subject fed with await send from a task stays within the bound of a loop that takes in batches")
  func subjectSendStaysWithinTheBound() async {
    let subject = Subject<Int, Never>()
    let sent = Locked(0)
    let values = subject.startWith(-1).values(bufferingPolicy: .bounded(16))
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == -1)  // the loop has subscribed: nothing sent from now on is lost
    let producer = Task {
      for value in 0..<10_000 {
        await subject.send(value)
        sent.increment()
      }
      subject.sendCompleted()
    }
    var received: [Int] = []
    var furthestAhead = 0
    while let value = await iterator.next() {
      received.append(value)
      furthestAhead = max(furthestAhead, sent.value - received.count)
      if received.count.isMultiple(of: 100) { await Task.yield() }
    }
    await producer.value
    #expect(received == Array(0..<10_000))
    // The producer sends from its own task, so it looks for room before each value; one more may be on its way.
    #expect(furthestAhead <= 16 + 1)
    #expect(iterator.highWaterMark <= 16 + 1)
  }

  @Test("a signal that terminates while values wait in the batch ends after them, in order")
  func terminationAfterTheBatch() async {
    let subject = ReplaySubject<Int, TestError>()
    for value in 1...5 { subject.sendNext(value) }
    var iterator = subject.values(bufferingPolicy: .bounded(8)).makeAsyncIterator()
    var received: [Int] = []
    var failure: TestError?
    do {
      // The first call subscribes: 1 to 5 are replayed at once; 1 is returned and 2 to 5 move to the batch.
      if let value = try await iterator.next() { received.append(value) }
      #expect(iterator.batchedCount == 4)
      subject.sendNext(6)  // buffered behind the batch
      subject.sendError(TestError(code: 3))
      while let value = try await iterator.next() { received.append(value) }
    } catch {
      failure = error
    }
    #expect(received == [1, 2, 3, 4, 5, 6])
    #expect(failure == TestError(code: 3))
  }

  @Test("a signal that completes while the loop is past its checkpoint ends after the batch, in order")
  func completionPastTheCheckpoint() async {
    let subject = ReplaySubject<Int, Never>()
    for value in 1...8 { subject.sendNext(value) }
    var iterator = subject.values(bufferingPolicy: .bounded(8)).makeAsyncIterator()
    var received: [Int] = []
    if let value = await iterator.next() { received.append(value) }  // 2 to 8 move to the batch
    #expect(iterator.batchedCount == 7)
    for _ in 0..<2 {
      if let value = await iterator.next() { received.append(value) }
    }
    subject.sendNext(9)
    subject.sendCompleted()
    // The batch reaches its checkpoint (4 left) after the signal has terminated: it goes on, then 9, then the end.
    while let value = await iterator.next() { received.append(value) }
    #expect(received == Array(1...9))
    #expect(await iterator.next() == nil)
  }

  @Test("a loop cancelled while values wait in its batch receives none of them, disposes, and releases them")
  func cancellationDropsTheBatch() async {
    let held = Locked<[WeakTracked]>([])
    let probe = ProbedSignal<Tracked, Never> { subscriber in
      for _ in 0..<6 {
        let value = Tracked()
        held.append(WeakTracked(value))
        subscriber.sendNext(value)
      }
      return nil  // never terminates
    }
    let (first, afterCancelling, batchedBefore, batchedAfter) = await Task {
      () -> (Bool, Tracked?, Int, Int) in
      var iterator = probe.signal.values(bufferingPolicy: .bounded(8)).makeAsyncIterator()
      let first = await iterator.next()  // subscribes: 6 sent at once; the first returned, 5 in the batch
      let batchedBefore = iterator.batchedCount
      withUnsafeCurrentTask { $0?.cancel() }
      let afterCancelling = await iterator.next()
      return (first != nil, afterCancelling, batchedBefore, iterator.batchedCount)
    }.value
    #expect(first && batchedBefore == 5)
    #expect(afterCancelling == nil && batchedAfter == 0)
    #expect(probe.disposals.value == 1)
    #expect(held.value.count == 6 && held.value.allSatisfy { $0.object == nil })  // nothing kept them
  }

  @Test("breaking out of a loop while values wait in its batch disposes at once and releases them")
  func breakDropsTheBatch() async {
    let held = Locked<[WeakTracked]>([])
    let probe = ProbedSignal<Tracked, Never> { subscriber in
      for _ in 0..<6 {
        let value = Tracked()
        held.append(WeakTracked(value))
        subscriber.sendNext(value)
      }
      return nil
    }
    var count = 0
    for await _ in probe.signal.values(bufferingPolicy: .bounded(8)) {
      count += 1
      if count == 2 { break }  // 4 still in the batch
    }
    #expect(probe.disposals.value == 1)
    #expect(held.value.allSatisfy { $0.object == nil })
  }
}
