import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("buffer(time:on:), buffer(count:), buffer(time:count:on:)")
struct BufferTests {
  @Test("buffers nexts into arrays sent the interval after the first buffered value (RAC: should buffer nexts)")
  func buffersNexts() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let times = Locked<[TimeInterval]>([])
    let recorder = EventRecorder(
      subject.buffer(time: .seconds(1), on: scheduler).map { values in
        times.append(scheduler.now.timeIntervalSinceReferenceDate)
        return values
      })
    subject.sendNext(1)
    scheduler.advance(by: .milliseconds(500))
    subject.sendNext(2)
    scheduler.advance(by: .milliseconds(499))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == [[1, 2]])
    scheduler.advance(by: .milliseconds(500))
    subject.sendNext(3)
    subject.sendNext(4)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [[1, 2], [3, 4]])
    #expect(times.value == [1, 2.5])
  }

  @Test("does not start buffering until a value is sent, and never sends an empty array (RAC)")
  func noEmptyBuffers() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.buffer(time: .seconds(1), on: scheduler))
    #expect(scheduler.scheduledCount == 0)
    subject.sendNext(1)
    scheduler.advance(by: .seconds(10))
    #expect(recorder.values == [[1]])
    #expect(scheduler.scheduledCount == 0)
    subject.sendNext(2)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [[1], [2]])
  }

  @Test("flushes the buffered nexts at once upon completion, then completes (RAC)")
  func completionFlushes() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.buffer(time: .seconds(1), on: scheduler))
    subject.sendNext(1)
    subject.sendCompleted()
    #expect(recorder.events == [.next([1]), .completed])
    #expect(scheduler.scheduledCount == 0)
    #expect(subject.subscriberCount == 0)
  }

  @Test("completion with an empty buffer sends no array")
  func completionEmpty() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.buffer(time: .seconds(1), on: scheduler))
    subject.sendCompleted()
    #expect(recorder.events == [.completed])
  }

  @Test("an error is sent at once and the buffered values are dropped, as RAC drops them")
  func errorDropsBuffer() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.buffer(time: .seconds(1), on: scheduler))
    subject.sendNext(1)
    subject.sendError(TestError(code: 2))
    #expect(recorder.events == [.error(TestError(code: 2))])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("buffers values sent from the downstream callback into the next array (guarantee 6)")
  func reentrantSend() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let received = Locked<[[Int]]>([])
    subject.buffer(time: .seconds(1), on: scheduler).subscribeNext { values in
      received.append(values)
      if values == [1] { subject.sendNext(2) }
    }
    subject.sendNext(1)
    scheduler.advance(by: .seconds(2))
    #expect(received.value == [[1], [2]])
  }

  @Test("disposing cancels the timer and disposes the source")
  func disposal() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.buffer(time: .seconds(1), on: scheduler))
    subject.sendNext(1)
    #expect(scheduler.scheduledCount == 1)
    recorder.dispose()
    #expect(scheduler.scheduledCount == 0)
    #expect(subject.subscriberCount == 0)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.events.isEmpty)
  }

  @Test("the subscription's closures are released once it terminates and once it is disposed (guarantee 8)")
  func releasesClosures() {
    let scheduler = TestScheduler()
    let tracker = LifetimeTracker()
    let completing = Subject<Int, Never>()
    let disposed = Subject<Int, Never>()
    let disposables: [any Disposable] = {
      let tracked = tracker.make()
      return [
        completing.buffer(time: .seconds(1), on: scheduler).subscribeNext { _ in _ = tracked },
        disposed.buffer(time: .seconds(1), on: scheduler).subscribeNext { _ in _ = tracked },
      ]
    }()
    completing.sendNext(1)
    completing.sendCompleted()
    disposed.sendNext(1)
    #expect(tracker.liveCount == 1)
    disposables[1].dispose()
    #expect(tracker.liveCount == 0)
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("the immediate scheduler stops with a message naming the operator and argument (RAC asserts it too)")
  func immediateScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().buffer(time: .seconds(1), on: .immediate)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("buffer(time:on:): scheduler must not be the immediate scheduler"))
  }

  @Test("a negative interval stops with a message naming the operator and argument")
  func negativeInterval() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().buffer(time: .seconds(-1), on: TestScheduler())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("buffer(time:on:): interval must not be negative"))
  }

  // MARK: buffer(count:)

  @Test("buffer(count:) sends each array as soon as it holds count values, on the sending thread")
  func countSendsFullArrays() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.buffer(count: 2))
    subject.sendNext(1)
    #expect(recorder.events.isEmpty)
    subject.sendNext(2)
    #expect(recorder.values == [[1, 2]])
    for value in 3...6 { subject.sendNext(value) }
    #expect(recorder.values == [[1, 2], [3, 4], [5, 6]])
    #expect(!recorder.isTerminated)
  }

  @Test("buffer(count:) sends the shorter last array on completion, and no empty array")
  func countCompletionFlushes() {
    let partial = SyncSource<Int, TestError>([1, 2, 3])
    let recorder = EventRecorder(partial.signal.buffer(count: 2))
    #expect(recorder.events == [.next([1, 2]), .next([3]), .completed])
    let exact = EventRecorder(SyncSource<Int, TestError>([1, 2]).signal.buffer(count: 2))
    #expect(exact.events == [.next([1, 2]), .completed])
    let none = EventRecorder(SyncSource<Int, TestError>([]).signal.buffer(count: 2))
    #expect(none.events == [.completed])
  }

  @Test("buffer(count:) forwards a failure at once and drops the buffered values")
  func countFailureDrops() {
    let source = SyncSource<Int, TestError>([1, 2, 3], then: .error(TestError(code: 4)))
    let recorder = EventRecorder(source.signal.buffer(count: 2))
    #expect(recorder.events == [.next([1, 2]), .error(TestError(code: 4))])
  }

  @Test("buffer(count:): a value sent back, nested, from the downstream callback joins the next array (guarantee 6)")
  func countReentrantSend() {
    // A `create` source delivers a send from inside the callback at once, nested (a subject would queue it).
    let source = LoopbackSource<Int, Never>()
    let received = Locked<[[Int]]>([])
    source.signal.buffer(count: 2).subscribeNext { values in
      received.append(values)
      if values == [1, 2] { source.sendNext(3) }
    }
    source.sendNext(1)
    source.sendNext(2)
    source.sendNext(4)
    #expect(received.value == [[1, 2], [3, 4]])
  }

  @Test("buffer(count:): disposing disposes the source; a downstream that stops disposes it too")
  func countDisposal() {
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.buffer(count: 2))
    subject.sendNext(1)
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
    subject.sendNext(2)
    #expect(recorder.events.isEmpty)
    let taken = EventRecorder(subject.buffer(count: 1).take(1))
    subject.sendNext(3)
    #expect(taken.events == [.next([3]), .completed])
    #expect(subject.subscriberCount == 0)
  }

  @Test("buffer(count:) releases the subscription's closures once it terminates and once it is disposed (guarantee 8)")
  func countReleasesClosures() {
    let tracker = LifetimeTracker()
    let completing = Subject<Int, Never>()
    let disposed = Subject<Int, Never>()
    let disposables: [any Disposable] = {
      let tracked = tracker.make()
      return [
        completing.buffer(count: 2).subscribeNext { _ in _ = tracked },
        disposed.buffer(count: 2).subscribeNext { _ in _ = tracked },
      ]
    }()
    completing.sendNext(1)
    completing.sendCompleted()
    disposed.sendNext(1)
    #expect(tracker.liveCount == 1)
    disposables[1].dispose()
    #expect(tracker.liveCount == 0)
  }

  @Test("buffer(count:) with a count that is not positive stops with a message naming the operator and argument")
  func countNotPositive() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().buffer(count: 0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("buffer(count:): count must be positive"))
  }

  // MARK: buffer(time:count:on:)

  @Test("buffer(time:count:on:) sends a full array at once and cancels its timer; the next value starts a new clock")
  func timeOrCountFull() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let times = Locked<[TimeInterval]>([])
    let recorder = EventRecorder(
      subject.buffer(time: .seconds(1), count: 2, on: scheduler).map { values in
        times.append(scheduler.now.timeIntervalSinceReferenceDate)
        return values
      })
    subject.sendNext(1)
    #expect(scheduler.scheduledCount == 1)
    scheduler.advance(by: .milliseconds(500))
    subject.sendNext(2)
    #expect(recorder.values == [[1, 2]])
    #expect(scheduler.scheduledCount == 0)
    subject.sendNext(3)
    scheduler.advance(by: .milliseconds(500))  // 1 s after the first value: its timer is gone
    #expect(recorder.values == [[1, 2]])
    scheduler.advance(by: .milliseconds(500))  // 1 s after the value 3
    #expect(recorder.values == [[1, 2], [3]])
    #expect(times.value == [0.5, 1.5])
  }

  @Test("buffer(time:count:on:) sends what it has when the interval passes first, on the scheduler")
  func timeOrCountTimeFirst() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.buffer(time: .seconds(1), count: 3, on: scheduler))
    subject.sendNext(1)
    subject.sendNext(2)
    scheduler.advance(by: .milliseconds(999))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == [[1, 2]])
    scheduler.advance(by: .seconds(5))
    #expect(recorder.values == [[1, 2]])  // no empty array, no clock while nothing is buffered
    for value in 3...5 { subject.sendNext(value) }
    #expect(recorder.values == [[1, 2], [3, 4, 5]])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("buffer(time:count:on:) with a count of 1 sends each value at once and never starts a timer")
  func timeOrCountOne() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.buffer(time: .seconds(1), count: 1, on: scheduler))
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(recorder.values == [[1], [2]])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("buffer(time:count:on:) with a zero interval sends at the scheduler's next turn, as buffer(time:on:) does")
  func timeOrCountZeroInterval() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.buffer(time: .zero, count: 10, on: scheduler))
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(recorder.values.isEmpty)
    scheduler.advance()
    #expect(recorder.values == [[1, 2]])
  }

  @Test("buffer(time:count:on:) sends the buffer on completion at once; a failure drops it; no timer is left")
  func timeOrCountTerminal() {
    let scheduler = TestScheduler()
    let completing = Subject<Int, TestError>()
    let completed = EventRecorder(completing.buffer(time: .seconds(1), count: 3, on: scheduler))
    for value in 1...4 { completing.sendNext(value) }
    completing.sendCompleted()
    #expect(completed.events == [.next([1, 2, 3]), .next([4]), .completed])
    let failing = Subject<Int, TestError>()
    let failed = EventRecorder(failing.buffer(time: .seconds(1), count: 3, on: scheduler))
    failing.sendNext(1)
    failing.sendError(TestError(code: 5))
    #expect(failed.events == [.error(TestError(code: 5))])
    #expect(scheduler.scheduledCount == 0)
    #expect(completing.subscriberCount == 0 && failing.subscriberCount == 0)
  }

  @Test("buffer(time:count:on:): a value sent back, nested, from a full array's callback starts the next array")
  func timeOrCountReentrant() {
    let scheduler = TestScheduler()
    let source = LoopbackSource<Int, Never>()
    let received = Locked<[[Int]]>([])
    source.signal.buffer(time: .seconds(1), count: 2, on: scheduler).subscribeNext { values in
      received.append(values)
      if values == [1, 2] { source.sendNext(3) }
    }
    source.sendNext(1)
    source.sendNext(2)
    #expect(received.value == [[1, 2]])
    #expect(scheduler.scheduledCount == 1)
    scheduler.advance(by: .seconds(1))
    #expect(received.value == [[1, 2], [3]])
  }

  @Test("buffer(time:count:on:): disposing cancels the timer, disposes the source and releases the closures")
  func timeOrCountDisposal() {
    let scheduler = TestScheduler()
    let tracker = LifetimeTracker()
    let subject = Subject<Int, Never>()
    let subscription: any Disposable = {
      let tracked = tracker.make()
      return subject.buffer(time: .seconds(1), count: 2, on: scheduler).subscribeNext { _ in _ = tracked }
    }()
    subject.sendNext(1)
    #expect(scheduler.scheduledCount == 1)
    subscription.dispose()
    #expect(scheduler.scheduledCount == 0)
    #expect(subject.subscriberCount == 0)
    #expect(tracker.liveCount == 0)
  }

  @Test("buffer(time:count:on:) with a count that is not positive stops with a message naming operator and argument")
  func timeOrCountNotPositive() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().buffer(time: .seconds(1), count: -1, on: TestScheduler())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("buffer(time:count:on:): count must be positive"))
  }

  @Test("buffer(time:count:on:) with a negative interval stops with a message naming the operator and argument")
  func timeOrCountNegativeInterval() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().buffer(time: .seconds(-1), count: 2, on: TestScheduler())
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("buffer(time:count:on:): interval must not be negative"))
  }

  @Test("buffer(time:count:on:) on the immediate scheduler stops with a message naming the operator and argument")
  func timeOrCountImmediateScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().buffer(time: .seconds(1), count: 2, on: .immediate)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("buffer(time:count:on:): scheduler must not be the immediate scheduler"))
  }
}
