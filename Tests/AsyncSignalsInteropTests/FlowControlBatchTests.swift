import Dispatch
import AsyncSignals
import AsyncSignalsInterop
import Testing

@testable import AsyncSignalsInterop

// A `.bounded(n)` loop takes its values without a lock round trip per value (issue 29, item 5): from a ring that the
// producer fills and the loop empties without a lock, and, for what overflowed it, in a batch taken in one go as the
// unbounded loop does. What the source produced is never more than `n` ahead of what the loop has taken, and a paused
// source resumes once what the loop holds is down to half.

/// A weak reference to a value a loop holds, to see when it is released.
private struct WeakTracked: Sendable {
  weak var object: Tracked?
  init(_ object: Tracked) { self.object = object }
}

@Suite("Flow control: a bounded loop takes without a lock round trip per value")
struct FlowControlBatchTests {
  @Test("a bounded loop takes from its ring without the lock; what it holds reopens the bound at half")
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
    await take(&iterator)  // subscribes: the walk fills the ring with 8 and pauses; 0 is returned, 7 held
    #expect(produced.value == 8)
    #expect(iterator.heldCount == 7)
    for _ in 0..<3 { await take(&iterator) }  // 4 held: half of 8
    #expect(produced.value == 8 + 4)  // resumed as the loop took the fourth, on this task, until 8 held again
    #expect(iterator.heldCount == 8)
    for _ in 0..<3 { await take(&iterator) }  // 5 held
    #expect(produced.value == 12)
    await take(&iterator)  // 4 held: half again
    #expect(produced.value == 16)
    #expect(iterator.heldCount == 8)
    while taken.count < 100 { await take(&iterator) }
    #expect(await iterator.next() == nil)
    #expect(taken == Array(0..<100))
    #expect(iterator.highWaterMark == 8)
    #expect(values.overflowCount == 0)
  }

  @Test("an async producer that never pauses on its own stays within the bound of a loop that takes without the lock")
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
    var held = 0
    while let value = await iterator.next() {
      received.append(value)
      furthestAhead = max(furthestAhead, sent.value - received.count)
      held = max(held, iterator.heldCount)
      if received.count.isMultiple(of: 100) { await Task.yield() }
    }
    #expect(received == Array(0..<10_000))  // in order, none lost, none twice
    #expect(furthestAhead <= 16)
    #expect(iterator.highWaterMark <= 16 && values.overflowCount == 0)
    #expect(held <= 16)
  }

  @Test("a subject fed with await send from a task stays within the bound of a loop that takes without the lock")
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

  @Test("a sender that cannot pause overflows the ring: counted, and received after the ring's values, in order")
  func overflowAfterTheRing() async {
    let subject = Subject<Int, Never>()
    let values = subject.startWith(0).values(bufferingPolicy: .bounded(4))
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == 0)  // subscribed, and not waiting while the subject sends
    for value in 1...10 { subject.sendNext(value) }  // 1 to 4 fill the ring; 5 to 10 go past it, each counted
    #expect(values.overflowCount == 6)
    #expect(iterator.highWaterMark == 10)
    #expect(iterator.heldCount == 4)  // the overflow waits behind the lock, not in the ring
    var received: [Int] = []
    for _ in 1...10 {
      if let value = await iterator.next() { received.append(value) }
    }
    subject.sendNext(11)
    subject.sendCompleted()
    while let value = await iterator.next() { received.append(value) }
    #expect(received == Array(1...11))
  }

  @Test(
    "a value handed to a waiting loop does not count against the bound: .bounded(n) lets n more be sent at once",
    arguments: [1, 2, 3])
  func handedValueLeavesTheBoundOpen(limit: Int) async {
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(limit))
    let loopExecutor = SerialTaskExecutor()
    let waiting = Gate()
    let gate = Gate()
    let loop = Task(executorPreference: loopExecutor) {
      loopExecutor.afterCurrentJob { waiting.open() }  // once its first next() has subscribed and suspended
      for await _ in values { await gate.wait() }
    }
    await waiting.wait()
    // The loop cannot run again until the test lets it: whatever the sender sends now waits for it.
    let blocked = DispatchSemaphore(value: 0)
    loopExecutor.queue.async { blocked.wait() }
    let senderExecutor = SerialTaskExecutor()
    let sent = Locked<[Int]>([])
    let sender = Task(executorPreference: senderExecutor) {
      for value in 1...(limit + 2) {
        await subject.send(value)
        sent.append(value)
      }
    }
    // Once the sender has suspended: 1 was handed to the waiting loop, and `limit` more fill its buffer.
    await withCheckedContinuation { continuation in senderExecutor.queue.async { continuation.resume() } }
    #expect(sent.value == Array(1...(limit + 1)))
    blocked.signal()
    gate.open()
    await sender.value
    subject.sendCompleted()
    await loop.value
    #expect(values.overflowCount == 0)
  }

  @Test("a bound larger than the ring: the rest waits behind the lock, and the bound and the order still hold")
  func boundLargerThanTheRing() async {
    let produced = Locked(0)
    let values = Signal<Int, Never>.from(0..<5_000).doNext { _ in produced.increment() }
      .values(bufferingPolicy: .bounded(1_000))
    var iterator = values.makeAsyncIterator()
    var received: [Int] = []
    var furthestAhead = 0
    while let value = await iterator.next() {
      received.append(value)
      furthestAhead = max(furthestAhead, produced.value - received.count)
    }
    #expect(received == Array(0..<5_000))
    #expect(furthestAhead <= 1_000)
    #expect(iterator.highWaterMark == 1_000)  // the walk filled the bound before it paused, the first time
    #expect(values.overflowCount == 0)
  }

  @Test("a bound larger than the ring resumes its paused source with half the bound left", arguments: [300, 600, 1_000])
  func largeBoundResumesAtHalf(limit: Int) async {
    let produced = Locked(0)
    let values = Signal<Int, Never>.from(0..<(limit * 4)).doNext { _ in produced.increment() }
      .values(bufferingPolicy: .bounded(limit))
    var iterator = values.makeAsyncIterator()
    var taken = 0
    var resumedAt: [Int] = []  // what the loop still held each time the walk produced again
    var last = 0
    while let value = await iterator.next() {
      #expect(value == taken)
      taken += 1
      let now = produced.value
      if now != last, last != 0 { resumedAt.append(last - taken) }  // resumed as this value was taken
      last = now
      #expect(now - taken <= limit, "after taking \(taken)")
    }
    #expect(taken == limit * 4)
    #expect(!resumedAt.isEmpty)
    #expect(resumedAt.allSatisfy { $0 == limit / 2 }, "held when the walk resumed: \(resumedAt)")
    #expect(values.overflowCount == 0)
  }

  @Test("a bound of Int.max is a buffer that never closes: nothing allocated up front for it, nothing counted")
  func boundOfIntMax() async {
    let values = Signal<Int, Never>.from(0..<100).values(bufferingPolicy: .bounded(.max))
    var received: [Int] = []
    for await value in values { received.append(value) }
    #expect(received == Array(0..<100))
    #expect(values.overflowCount == 0)
  }

  @Test("a signal that terminates while values wait in the ring ends after them, in order")
  func terminationAfterTheBatch() async {
    let subject = ReplaySubject<Int, TestError>()
    for value in 1...5 { subject.sendNext(value) }
    var iterator = subject.values(bufferingPolicy: .bounded(8)).makeAsyncIterator()
    var received: [Int] = []
    var failure: TestError?
    do {
      // The first call subscribes: 1 to 5 are replayed at once; 1 is returned and 2 to 5 wait in the ring.
      if let value = try await iterator.next() { received.append(value) }
      #expect(iterator.heldCount == 4)
      subject.sendNext(6)  // behind them
      subject.sendError(TestError(code: 3))
      while let value = try await iterator.next() { received.append(value) }
    } catch {
      failure = error
    }
    #expect(received == [1, 2, 3, 4, 5, 6])
    #expect(failure == TestError(code: 3))
  }

  @Test("a signal that completes while the loop is halfway through its ring ends after it, in order")
  func completionPastTheCheckpoint() async {
    let subject = ReplaySubject<Int, Never>()
    for value in 1...8 { subject.sendNext(value) }
    var iterator = subject.values(bufferingPolicy: .bounded(8)).makeAsyncIterator()
    var received: [Int] = []
    if let value = await iterator.next() { received.append(value) }  // 2 to 8 wait in the ring
    #expect(iterator.heldCount == 7)
    for _ in 0..<2 {
      if let value = await iterator.next() { received.append(value) }
    }
    subject.sendNext(9)
    subject.sendCompleted()
    // The ring reaches half (4 left) after the signal has terminated: it goes on, then 9, then the end.
    while let value = await iterator.next() { received.append(value) }
    #expect(received == Array(1...9))
    #expect(await iterator.next() == nil)
  }

  @Test("a loop cancelled while values wait in its ring receives none of them, disposes, and releases them")
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
    let (first, afterCancelling, heldBefore, heldAfter) = await Task {
      () -> (Bool, Tracked?, Int, Int) in
      var iterator = probe.signal.values(bufferingPolicy: .bounded(8)).makeAsyncIterator()
      let first = await iterator.next()  // subscribes: 6 sent at once; the first returned, 5 in the ring
      let heldBefore = iterator.heldCount
      withUnsafeCurrentTask { $0?.cancel() }
      let afterCancelling = await iterator.next()
      return (first != nil, afterCancelling, heldBefore, iterator.heldCount)
    }.value
    #expect(first && heldBefore == 5)
    #expect(afterCancelling == nil && heldAfter == 0)
    #expect(probe.disposals.value == 1)
    #expect(held.value.count == 6 && held.value.allSatisfy { $0.object == nil })  // nothing kept them
  }

  @Test("breaking out of a loop while values wait in its ring disposes at once and releases them")
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
      if count == 2 { break }  // 4 still in the ring
    }
    #expect(probe.disposals.value == 1)
    #expect(held.value.allSatisfy { $0.object == nil })
  }
}
