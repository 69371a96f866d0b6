import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("delay(_:on:)")
struct DelayTests {
  @Test("delays nexts and completion by the interval (RAC: should delay nexts, should delay completed)")
  func delaysNextsAndCompletion() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("a-bc-|")
    #expect(scheduler.diagram(of: source.delay(.seconds(2), on: scheduler)) == "--a-bc-|")
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("exact virtual times: each event is sent exactly the interval after it arrived, on the scheduler")
  func exactTimes() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let times = Locked<[TimeInterval]>([])
    let onScheduler = Locked<[Bool]>([])
    subject.delay(.milliseconds(250), on: scheduler).subscribeNext(
      { _ in
        times.append(scheduler.now.timeIntervalSinceReferenceDate)
        onScheduler.append(Schedulers.current === scheduler)
      }, error: { _ in },
      completed: { times.append(scheduler.now.timeIntervalSinceReferenceDate) })
    subject.sendNext(1)
    scheduler.advance(by: .milliseconds(100))
    subject.sendNext(2)
    subject.sendCompleted()
    scheduler.advance(by: .milliseconds(149))
    #expect(times.value.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(times.value == [0.25])
    scheduler.advance(by: .milliseconds(100))
    #expect(times.value == [0.25, 0.35, 0.35])
    #expect(onScheduler.value == [true, true])
  }

  @Test("does not delay errors, and drops the values still waiting (RAC: should not delay errors)")
  func errorsImmediate() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("ab#")
    #expect(scheduler.diagram(of: source.delay(.seconds(5), on: scheduler)) == "--#")
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("without a scheduler, events are delayed on the scheduler current where they arrive (RAC's -delay:)")
  func currentScheduler() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("a-bc-|")
    #expect(scheduler.diagram(of: source.delay(.seconds(2))) == "--a-bc-|")
  }

  @Test("delay(0) sends each event on the scheduler's next turn")
  func zeroDelay() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.delay(.zero, on: scheduler))
    subject.sendNext(1)
    subject.sendCompleted()
    #expect(recorder.events.isEmpty)
    scheduler.advance()
    #expect(recorder.events == [.next(1), .completed])
  }

  @Test(
    "disposing cancels the delayed events and disposes the source (RAC: should cancel delayed events when disposed)")
  func disposal() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.delay(.seconds(1), on: scheduler))
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(scheduler.scheduledCount == 2)
    recorder.dispose()
    #expect(scheduler.scheduledCount == 0)
    #expect(subject.subscriberCount == 0)
    scheduler.advance(by: .seconds(2))
    #expect(recorder.events.isEmpty)
  }

  @Test("a downstream that stops early cancels the events still waiting")
  func downstreamStops() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let subscription = SerialDisposable()
    subscription.inner = subject.delay(.seconds(1), on: scheduler).subscribeNext { value in
      received.append(value)
      subscription.dispose()
    }
    subject.sendNext(1)
    subject.sendNext(2)
    scheduler.advance(by: .seconds(1))
    #expect(received.value == [1])
    #expect(scheduler.scheduledCount == 0)
    #expect(subject.subscriberCount == 0)
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
        completing.delay(.seconds(1), on: scheduler).subscribeNext { _ in _ = tracked },
        disposed.delay(.seconds(1), on: scheduler).subscribeNext { _ in _ = tracked },
      ]
    }()
    completing.sendNext(1)
    completing.sendCompleted()
    disposed.sendNext(1)
    scheduler.advance(by: .seconds(1))
    #expect(tracker.liveCount == 1)
    disposed.sendNext(2)
    disposables[1].dispose()
    #expect(tracker.liveCount == 0)
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("on a real queue, fed from another thread: every value, in order, then completion")
  func realQueue() async {
    let worker = QueueScheduler(name: "delay")
    let subject = Subject<Int, Never>()
    let received = await withCheckedContinuation { continuation in
      let values = Locked<[Int]>([])
      subject.delay(.microseconds(10), on: worker).subscribeNext(
        { values.append($0) }, completed: { continuation.resume(returning: values.value) })
      DispatchQueue.global().async { @Sendable in
        for value in 0..<1_000 { subject.sendNext(value) }
        subject.sendCompleted()
      }
    }
    #expect(received == Array(0..<1_000))
  }

  @Test("a failure racing with delayed values on a real queue: it comes last and nothing follows it (guarantee 2)")
  func realQueueFailure() async {
    let worker = QueueScheduler(name: "delay failure")
    let subject = Subject<Int, TestError>()
    let events = Locked<[Event<Int, TestError>]>([])
    await withCheckedContinuation { continuation in
      subject.delay(.zero, on: worker).subscribeNext(
        { events.append(.next($0)) },
        error: {
          events.append(.error($0))
          continuation.resume()
        }, completed: {})
      DispatchQueue.global().async { @Sendable in
        for value in 0..<1_000 { subject.sendNext(value) }
        subject.sendError(TestError(code: 9))
      }
    }
    await withCheckedContinuation { continuation in worker.schedule { continuation.resume() } }
    let recorded = events.value
    #expect(recorded.last == .error(TestError(code: 9)))
    #expect(recorded.dropLast().compactMap(\.value) == Array(0..<(recorded.count - 1)))
  }

  // MARK: The engine's ordering rule (shared with deliver(on:) and deliverOnMainThread)

  @Test("events keep their order even if their blocks run out of order: a block delivers everything due before it")
  func orderingRule() {
    var machine = DeliverStateMachine<Int, Never>(Observer { _ in .proceed })
    let first = machine.enqueue(.next(1))!
    let second = machine.enqueue(.next(2))!
    let third = machine.enqueue(.completed)!
    let blocks = [first, second, third].map { _ in ActionDisposable() }
    for (sequence, block) in zip([first, second, third], blocks) {
      _ = machine.scheduled(block, for: sequence)
    }
    var values = 0
    machine.fired(second, values: &values).perform()  // the second block ran first
    #expect(values == 2)  // what a bounded hop gives back
    var delivered: [Event<Int, Never>] = []
    while let event = machine.outbox.pending.popFirst() { delivered.append(event) }
    #expect(delivered == [.next(1), .next(2)])
    #expect(blocks[0].isDisposed && !blocks[1].isDisposed && !blocks[2].isDisposed)
    machine.fired(first, values: &values).perform()  // the first block, late: nothing left to do
    #expect(machine.outbox.pending.isEmpty && values == 2)
    machine.fired(third, values: &values).perform()
    #expect(machine.outbox.pending.popFirst() == .completed)
    #expect(machine.enqueue(.next(4)) == nil)
  }

  // MARK: Preconditions (guarantee 9)

  @Test("a negative interval stops with a message naming the operator and argument")
  func negativeInterval() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().delay(.milliseconds(-1))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("delay(_:on:): interval must not be negative"))
  }

  @Test("the immediate scheduler stops with a message naming the operator and argument")
  func immediateScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Subject<Int, Never>().delay(.seconds(1), on: .immediate)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("delay(_:on:): scheduler must not be the immediate scheduler"))
  }
}
