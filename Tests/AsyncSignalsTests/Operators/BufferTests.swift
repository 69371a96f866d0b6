import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("buffer(time:on:)")
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
}
