import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSignals
@testable import AsyncSignalsInterop

/// A sequence that counts the elements it has produced, and records whether any was produced on the main queue: the
/// reader of a file, as flow control sees it.
final class ProducingSequence: Sequence, Sendable {
  let count: Int
  let produced = Atomic<Int>(0)
  let producedOnMainQueue = Atomic<Bool>(false)

  init(_ count: Int) { self.count = count }

  func makeIterator() -> AnyIterator<Int> {
    var next = 0
    return AnyIterator { [self] in
      guard next < count else { return nil }
      if CurrentScheduler.isOnMainQueue { producedOnMainQueue.store(true, ordering: .relaxed) }
      produced.add(1, ordering: .relaxed)
      defer { next += 1 }
      return next
    }
  }
}

/// Flow control, part 2, item 1 (issue 28): the pause crosses a hop — `deliver(on:)`, `deliverOnMainThread()`,
/// `deliver(on:)` an `ActorScheduler`. The hop holds at most its own `k` values (`DeliverStorage.hopCapacity`), so a
/// source that can pause stays within `n + k` of what the loop has taken. Each test of the bound failed before: the
/// hop ended the pause, and the source ran to its end into the hop's queue.
@Suite("Flow control: the pause crosses a hop")
struct FlowControlHopTests {
  static let k = DeliverStorage<Int, Never>.hopCapacity

  /// Reads `values` slowly (yielding between values, so that the source can run ahead if nothing stops it), and
  /// records the most elements the source had produced beyond what the loop had taken, and the loop's high-water
  /// mark: values the hop delivers beyond the loop's `n` wait in the loop's buffer, counted as its overflow.
  static func readSlowly(
    _ values: SignalSequence<Int, Never>, source: ProducingSequence
  ) async -> (received: [Int], ahead: Int, highWaterMark: Int) {
    var received: [Int] = []
    var ahead = 0
    var iterator = values.makeAsyncIterator()
    while let value = await iterator.next() {
      received.append(value)
      ahead = max(ahead, source.produced.load(ordering: .relaxed) - received.count)
      for _ in 0..<3 { await Task.yield() }  // slower than the source
    }
    return (received, ahead, iterator.highWaterMark)
  }

  @Test("deliver(on:) a queue: the source pauses within n + k of the loop; nothing lost, in order")
  func deliverOnQueue() async {
    let source = ProducingSequence(20_000)
    let hop = QueueScheduler(name: "hop")
    let values = Signal<Int, Never>.from(source).deliver(on: hop).values(bufferingPolicy: .bounded(4))
    let (received, ahead, highWaterMark) = await Self.readSlowly(values, source: source)
    #expect(received == Array(0..<20_000))
    #expect(ahead <= 4 + Self.k + 1)
    #expect(highWaterMark <= 4 + Self.k)  // the hop never holds a value back: the loop's buffer takes its k
  }

  @Test("deliverOnMainThread(): bounded by n + k, and the source never resumes on the main queue")
  func deliverOnMainThread() async {
    let source = ProducingSequence(5_000)
    let values = Signal<Int, Never>.from(source).deliverOnMainThread().values(bufferingPolicy: .bounded(4))
    let (received, ahead, highWaterMark) = await Self.readSlowly(values, source: source)
    #expect(received == Array(0..<5_000))
    #expect(ahead <= 4 + Self.k + 1 && highWaterMark <= 4 + Self.k)
    let onMainQueue = source.producedOnMainQueue.load(ordering: .relaxed)
    #expect(!onMainQueue)  // a file reader must not run on the main queue
  }

  @Test("deliver(on:) an ActorScheduler: bounded by n + k")
  func deliverOnActorScheduler() async {
    actor Parser {}
    let source = ProducingSequence(5_000)
    let values = Signal<Int, Never>.from(source).deliver(on: ActorScheduler(Parser()))
      .values(bufferingPolicy: .bounded(4))
    let (received, ahead, highWaterMark) = await Self.readSlowly(values, source: source)
    #expect(received == Array(0..<5_000))
    #expect(ahead <= 4 + Self.k + 1 && highWaterMark <= 4 + Self.k)
  }

  @Test("through a hop, what a sender that cannot pause puts past n and the hop's k is counted, and only that")
  func hopCountsOnlyWhatCouldNotPause() async {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let values = subject.startWith(-1).deliver(on: scheduler).values(bufferingPolicy: .bounded(4))
    let executor = SerialTaskExecutor()
    let gate = Gate()
    let loop = Task(executorPreference: executor) { () -> [Int] in
      var received: [Int] = []
      for await value in values {
        received.append(value)
        if received.count == 1 { await gate.wait() }  // takes nothing more until the gate opens
      }
      return received
    }
    // Once the loop's first job has ended, it has subscribed; -1 waits in the hop for the scheduler.
    await withCheckedContinuation { continuation in executor.queue.async { continuation.resume() } }
    for value in 0..<100 { subject.sendNext(value) }  // never waits: the hop queues all of it
    scheduler.run()
    // -1 went to the waiting loop; of the 100 others, 4 filled its buffer and k more are the hop's slack: the rest
    // went past both, from a sender that did not pause, and is counted.
    #expect(values.overflowCount == 100 - 4 - Self.k)
    subject.sendCompleted()
    scheduler.run()  // the completion, through the hop
    gate.open()
    #expect(await loop.value == [-1] + Array(0..<100))
  }

  @Test("a hop whose scheduler does not run holds k values of a source that can pause; past n, they are not overflow")
  func hopHoldsK() async {
    let scheduler = TestScheduler()  // runs the hop's blocks only when told
    let source = ProducingSequence(100)
    let values = Signal<Int, Never>.from(source).deliver(on: scheduler).values(bufferingPolicy: .bounded(4))
    let executor = SerialTaskExecutor()
    let gate = Gate()
    let loop = Task(executorPreference: executor) { () -> [Int] in
      var received: [Int] = []
      for await value in values {
        received.append(value)
        if received.count == 1 { await gate.wait() }  // takes nothing more until the gate opens
      }
      return received
    }
    // Once the loop's first job has ended, it has subscribed: the walk filled the hop and paused.
    await withCheckedContinuation { continuation in executor.queue.async { continuation.resume() } }
    #expect(source.produced.load(ordering: .relaxed) == Self.k)
    #expect(scheduler.scheduledCount == 1)  // one block for all the values held: none sent on
    scheduler.run()
    // The hop never holds a value back: 0 went to the waiting loop, 1 to 4 filled its buffer, and the other 27 were
    // buffered beyond the bound: the hop's slack, not overflow, since their source paused. The source stays paused:
    // the loop is full.
    #expect(values.overflowCount == 0)
    #expect(source.produced.load(ordering: .relaxed) == Self.k)
    loop.cancel()  // the loop ends at its next call: the walk, paused, is released
    gate.open()
    #expect(await loop.value == [0])
  }

  @Test("a full hop's one block delivers what it holds; the source resumes then, on the background scheduler")
  func hopDeliversItsBurst() async {
    let scheduler = TestScheduler()  // runs the hop's blocks only when told
    let produced = Locked(0)
    let onBackground = Locked<[Bool]>([])  // for each value read after the first k
    let source = Signal<Int, Never>.from(0..<1_000).doNext { value in
      produced.increment()
      if value >= Self.k { onBackground.append(Schedulers.current === QueueScheduler.background) }
    }
    let values = source.deliver(on: scheduler).values(bufferingPolicy: .bounded(1_000))  // the loop is never full
    let executor = SerialTaskExecutor()
    let loop = Task(executorPreference: executor) { () -> Int in
      var count = 0
      for await _ in values { count += 1 }
      return count
    }
    /// Returns once every block given to `queue` before the call has run.
    func drained(_ queue: DispatchQueue) async {
      await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }
    await drained(executor.queue)  // the loop has subscribed: the walk filled the hop and paused
    #expect(produced.value == Self.k)
    #expect(scheduler.scheduledCount == 1)  // the k values wait for one block, not one each
    await drained(QueueScheduler.background.queue)
    #expect(produced.value == Self.k)  // still paused: nothing was delivered
    scheduler.step()  // the block delivers all k: the hop is empty, and resumes the source on the background scheduler
    await drained(QueueScheduler.background.queue)
    #expect(produced.value == 2 * Self.k)  // it read until the hop was full again, and paused
    #expect(onBackground.value == Array(repeating: true, count: Self.k))
    #expect(scheduler.scheduledCount == 1)
    loop.cancel()
    _ = await loop.value
  }

  @Test("two hops: each holds its own k, so the source stays within n + 2k of the loop")
  func twoHops() async {
    let source = ProducingSequence(10_000)
    let values = Signal<Int, Never>.from(source).deliver(on: QueueScheduler(name: "first"))
      .deliver(on: QueueScheduler(name: "second")).values(bufferingPolicy: .bounded(4))
    let (received, ahead, highWaterMark) = await Self.readSlowly(values, source: source)
    #expect(received == Array(0..<10_000))
    #expect(ahead <= 4 + 2 * Self.k + 1)
    #expect(highWaterMark <= 4 + 2 * Self.k)
  }

  @Test("a source subscribed on its own queue is read there, resumed reads too, whichever side of the hop made room")
  @MainActor
  func sourceOnItsQueueThroughTheHop() async {
    for name in ["deliver(on:)", "deliverOnMainThread()"] {
      let reader = QueueScheduler(name: "reader")
      let onReader = Locked<[Bool]>([])
      let source = Signal<Int, Never>.from(0..<3_000).doNext { _ in onReader.append(Schedulers.current === reader) }
        .subscribe(on: reader)
      let hopped =
        name == "deliver(on:)" ? source.deliver(on: QueueScheduler(name: "hop")) : source.deliverOnMainThread()
      var iterator = hopped.values(bufferingPolicy: .bounded(4)).makeAsyncIterator()
      var received: [Int] = []
      while let value = await iterator.next() {  // on the main actor
        received.append(value)
        for _ in 0..<3 { await Task.yield() }  // slower than the source
      }
      #expect(received == Array(0..<3_000), "\(name)")
      #expect(iterator.highWaterMark <= 4 + Self.k, "\(name)")
      #expect(onReader.value.count == 3_000 && onReader.value.allSatisfy { $0 }, "\(name)")
    }
  }

  @Test("after the hop, every value arrives with the hop's scheduler as the current scheduler")
  func currentSchedulerAfterTheHop() async {
    let hop = QueueScheduler(name: "hop")
    let onHop = Locked<[Bool]>([])
    let values = Signal<Int, Never>.from(0..<2_000).deliver(on: hop)
      .doNext { _ in onHop.append(Schedulers.current === hop) }
      .values(bufferingPolicy: .bounded(4))
    var count = 0
    for await _ in values {
      count += 1
      await Task.yield()
    }
    #expect(count == 2_000)
    #expect(onHop.value.count == 2_000 && onHop.value.allSatisfy { $0 })
  }

  @Test("a source that cannot pause: the hop holds nothing back, and the loop counts the excess")
  func subjectThroughTheHop() async {
    let subject = Subject<Int, Never>()
    let hop = QueueScheduler(name: "hop")
    let values = subject.deliver(on: hop).values(bufferingPolicy: .bounded(2))
    let executor = SerialTaskExecutor()
    let subscribed = DispatchSemaphore(value: 0)
    let producer = plainThread {
      subscribed.wait()
      for value in 0..<1_000 { subject.sendNext(value) }  // returns at once each time: nothing waits
      subject.sendCompleted()
    }
    let received = await Task(executorPreference: executor) { () -> [Int] in
      var iterator = values.makeAsyncIterator()
      executor.afterCurrentJob { subscribed.signal() }  // once the first next() has subscribed and suspended
      var received: [Int] = []
      while let value = await iterator.next() {
        if received.isEmpty { await producer.wait() }  // every value is sent before the loop takes a second
        received.append(value)
      }
      return received
    }.value
    #expect(received == Array(0..<1_000))
    #expect(values.overflowCount > 0)
  }

  @Test("the unbounded path keeps one block per event: a test scheduler steps each value")
  func unboundedPathUnchanged() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let subscription = subject.deliver(on: scheduler).subscribeNext { received.append($0) }
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(scheduler.scheduledCount == 2)
    scheduler.step()
    #expect(received.value == [1])
    scheduler.step()
    #expect(received.value == [1, 2])
    subscription.dispose()
  }
}
