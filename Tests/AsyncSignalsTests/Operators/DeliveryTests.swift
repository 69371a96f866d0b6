import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// Waits for one turn of the main queue: everything enqueued on it before the call has run when it returns.
@MainActor
private func mainQueueTurn() async {
  await withCheckedContinuation { continuation in
    DispatchQueue.main.async { continuation.resume() }
  }
}

@MainActor
@Suite("deliver(on:), deliverOnMainThread() and subscribe(on:)")
struct DeliveryTests {
  // MARK: deliver(on:)

  @Test("forwards each event through the scheduler, in order; the source's side effects stay on its thread (RAC)")
  func deliverOn() {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    let source = Signal<Int, TestError>.create { subscriber in
      log.append("side effect, test scheduler current: \(Schedulers.current === scheduler)")
      subscriber.sendNext(1)
      subscriber.sendNext(2)
      subscriber.sendCompleted()
      return nil
    }
    source.deliver(on: scheduler).subscribeNext(
      { log.append("next \($0), test scheduler current: \(Schedulers.current === scheduler)") }, error: { _ in },
      completed: { log.append("completed") })
    #expect(log.value == ["side effect, test scheduler current: false"])
    scheduler.advance()
    #expect(
      log.value == [
        "side effect, test scheduler current: false",
        "next 1, test scheduler current: true",
        "next 2, test scheduler current: true",
        "completed",
      ])
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("errors are delivered through the scheduler too, after the values sent before them")
  func deliverOnError() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.deliver(on: scheduler))
    subject.sendNext(1)
    subject.sendError(TestError(code: 3))
    #expect(recorder.events.isEmpty)
    scheduler.advance()
    #expect(recorder.events == [.next(1), .error(TestError(code: 3))])
    #expect(subject.subscriberCount == 0)
  }

  @Test("each event is its own scheduled block, so work scheduled between two events runs between them (RAC)")
  func oneBlockPerEvent() {
    let scheduler = TestScheduler()
    let subject = Subject<String, Never>()
    let log = Locked<[String]>([])
    subject.deliver(on: scheduler).subscribeNext { log.append($0) }
    subject.sendNext("first")
    scheduler.schedule { log.append("other work") }
    subject.sendNext("second")
    scheduler.advance()
    #expect(log.value == ["first", "other work", "second"])
  }

  @Test("on the immediate scheduler, delivery is unchanged")
  func deliverOnImmediate() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("a-bc-|")
    #expect(scheduler.diagram(of: source.deliver(on: .immediate)) == "a-bc-|")
  }

  @Test("disposing cancels the deliveries that have not run and disposes the source")
  func deliverOnDisposal() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.deliver(on: scheduler))
    subject.sendNext(1)
    subject.sendCompleted()
    #expect(scheduler.scheduledCount == 2)
    recorder.dispose()
    #expect(scheduler.scheduledCount == 0)
    scheduler.advance()
    #expect(recorder.events.isEmpty)

    let live = Subject<Int, Never>()
    EventRecorder(live.deliver(on: scheduler)).dispose()
    #expect(live.subscriberCount == 0)
  }

  @Test("a value sent back into the source from a delivery is delivered in a later block, not nested (guarantee 6)")
  func deliverOnReentrant() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let log = Locked<[String]>([])
    subject.deliver(on: scheduler).subscribeNext { value in
      log.append("start \(value)")
      if value == 1 { subject.sendNext(2) }
      log.append("end \(value)")
    }
    subject.sendNext(1)
    scheduler.advance()
    #expect(log.value == ["start 1", "end 1", "start 2", "end 2"])
  }

  @Test("the subscription's closures are released once it terminates and once it is disposed (guarantee 8)")
  func deliverOnReleasesClosures() {
    let scheduler = TestScheduler()
    let tracker = LifetimeTracker()
    let completing = Subject<Int, Never>()
    let disposed = Subject<Int, Never>()
    let disposables: [any Disposable] = {
      let tracked = tracker.make()
      return [
        completing.deliver(on: scheduler).subscribeNext { _ in _ = tracked },
        disposed.deliver(on: scheduler).subscribeNext { _ in _ = tracked },
      ]
    }()
    completing.sendCompleted()
    scheduler.advance()
    #expect(tracker.liveCount == 1)
    disposed.sendNext(1)
    disposables[1].dispose()
    #expect(tracker.liveCount == 0)
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("on a real queue, fed from another thread: every event in order, each on the queue")
  nonisolated func deliverOnRealQueue() async {
    let worker = QueueScheduler(name: "deliver(on:)")
    let subject = Subject<Int, Never>()
    let onWorker = Locked(true)
    let received = await withCheckedContinuation { continuation in
      let values = Locked<[Int]>([])
      subject.deliver(on: worker).subscribeNext(
        { value in
          if Schedulers.current !== worker { onWorker.value = false }
          values.append(value)
        }, completed: { continuation.resume(returning: values.value) })
      DispatchQueue.global().async { @Sendable in
        for value in 0..<10_000 { subject.sendNext(value) }
        subject.sendCompleted()
      }
    }
    #expect(received == Array(0..<10_000))
    #expect(onWorker.value)
  }

  // MARK: deliverOnMainThread() and deliver(on: .main)

  @Test("on the main queue with nothing queued, events are forwarded synchronously (RAC)")
  func mainThreadSynchronous() {
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.deliverOnMainThread())
    subject.sendNext(1)
    #expect(recorder.values == [1])
    subject.sendCompleted()
    #expect(recorder.events == [.next(1), .completed])
  }

  @Test("events sent from another thread are delivered on the main queue, in order")
  func mainThreadFromBackground() async {
    let subject = Subject<Int, TestError>()
    let onMain = Locked<[Bool]>([])
    let values = await withCheckedContinuation { continuation in
      let received = Locked<[Int]>([])
      subject.deliverOnMainThread().subscribeNext(
        { value in
          onMain.append(CurrentScheduler.isOnMainQueue)
          received.append(value)
        }, error: { _ in },
        completed: {
          onMain.append(CurrentScheduler.isOnMainQueue)
          continuation.resume(returning: received.value)
        })
      DispatchQueue.global().async {
        for value in 0..<100 { subject.sendNext(value) }
        subject.sendCompleted()
      }
    }
    #expect(values == Array(0..<100))
    #expect(onMain.value == Array(repeating: true, count: 101))
  }

  @Test("an event sent on the main queue while earlier ones are queued waits behind them (RAC's queue-length rule)")
  func mainThreadQueuedFirst() async {
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.deliverOnMainThread())
    DispatchQueue.global().sync { subject.sendNext(1) }  // not the main queue: queued
    subject.sendNext(2)  // on the main queue, but 1 is waiting: queued behind it
    #expect(recorder.values.isEmpty)
    await mainQueueTurn()
    #expect(recorder.values == [1, 2])
    subject.sendNext(3)  // nothing waits any more: synchronous again
    #expect(recorder.values == [1, 2, 3])
  }

  @Test("disposing cancels the main-queue deliveries that have not run, and disposes the source")
  func mainThreadDisposal() async {
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.deliverOnMainThread())
    DispatchQueue.global().sync { subject.sendNext(1) }
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
    await mainQueueTurn()
    #expect(recorder.events.isEmpty)
  }

  @Test("deliver(on: .main) always queues, even on the main queue, unlike deliverOnMainThread()")
  func deliverOnMain() async {
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.deliver(on: .main))
    subject.sendNext(1)
    #expect(recorder.values.isEmpty)
    await mainQueueTurn()
    #expect(recorder.values == [1])
  }

  @Test("deliverOnMainThread() releases its closures once disposed, queued deliveries included (guarantee 8)")
  func mainThreadReleasesClosures() async {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, Never>()
    let disposable: any Disposable = {
      let tracked = tracker.make()
      return subject.deliverOnMainThread().subscribeNext { _ in _ = tracked }
    }()
    subject.sendNext(1)  // synchronous
    DispatchQueue.global().sync { subject.sendNext(2) }  // queued
    disposable.dispose()
    await mainQueueTurn()
    #expect(tracker.liveCount == 0)
    #expect(subject.subscriberCount == 0)
  }

  // MARK: subscribe(on:)

  @Test("performs the subscription, and so the source's side effects, on the scheduler (RAC)")
  func subscribeOn() {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    let source = Signal<Int, Never>.create { subscriber in
      log.append("subscribed, test scheduler current: \(Schedulers.current === scheduler)")
      subscriber.sendNext(1)
      subscriber.sendCompleted()
      return nil
    }
    let recorder = EventRecorder(source.subscribe(on: scheduler))
    #expect(log.value.isEmpty)
    #expect(recorder.events.isEmpty)
    scheduler.advance()
    #expect(log.value == ["subscribed, test scheduler current: true"])
    #expect(recorder.events == [.next(1), .completed])
  }

  @Test("events are delivered where the source sends them, not moved to the scheduler")
  func subscribeOnDeliversInPlace() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let current = Locked<[Bool]>([])
    subject.subscribe(on: scheduler).subscribeNext { _ in current.append(Schedulers.current === scheduler) }
    scheduler.advance()
    #expect(subject.subscriberCount == 1)
    subject.sendNext(1)
    #expect(current.value == [false])
  }

  @Test("disposing before the scheduled subscription has run cancels it: the source is never subscribed")
  func subscribeOnDisposeEarly() {
    let scheduler = TestScheduler()
    let subscribed = Locked(false)
    let source = Signal<Int, Never>.create { _ in
      subscribed.value = true
      return nil
    }
    let recorder = EventRecorder(source.subscribe(on: scheduler))
    #expect(scheduler.scheduledCount == 1)
    recorder.dispose()
    #expect(scheduler.scheduledCount == 0)
    scheduler.advance()
    #expect(!subscribed.value)
  }

  @Test("disposing after the subscription has run disposes the source's subscription")
  func subscribeOnDisposeLate() {
    let scheduler = TestScheduler()
    let cleanedUp = Locked(false)
    let source = Signal<Int, Never>.create { _ in ActionDisposable { cleanedUp.value = true } }
    let recorder = EventRecorder(source.subscribe(on: scheduler))
    scheduler.advance()
    #expect(!cleanedUp.value)
    recorder.dispose()
    #expect(cleanedUp.value)
  }

  @Test("disposal racing with the scheduled subscription on another thread: every started subscription is cleaned up")
  func subscribeOnDisposalRace() async {
    let worker = QueueScheduler(name: "subscribe(on:) race")
    let started = Locked(0)
    let cleanedUp = Locked(0)
    let delivered = Locked(0)
    let source = Signal<Int, Never>.create { subscriber in
      started.increment()
      subscriber.sendNext(1)
      return ActionDisposable { cleanedUp.increment() }
    }
    let disposals = DispatchGroup()
    for _ in 0..<1_000 {
      let subscription = source.subscribe(on: worker).subscribeNext { _ in delivered.increment() }
      DispatchQueue.global().async(group: disposals) { @Sendable in subscription.dispose() }
    }
    // Once every disposal has returned, a block scheduled on the worker runs after every subscription block that
    // could still be there.
    await withCheckedContinuation { continuation in
      disposals.notify(queue: .global()) { @Sendable in worker.schedule { continuation.resume() } }
    }
    #expect(started.value == cleanedUp.value)
    #expect(delivered.value <= started.value)
  }

  @Test("the subscription's closures are released once it is disposed (guarantee 8)")
  func subscribeOnReleasesClosures() {
    let scheduler = TestScheduler()
    let tracker = LifetimeTracker()
    let subject = Subject<Int, Never>()
    let disposables: [any Disposable] = {
      let tracked = tracker.make()
      return [
        subject.subscribe(on: scheduler).subscribeNext { _ in _ = tracked },
        subject.subscribe(on: scheduler).subscribeNext { _ in _ = tracked },
      ]
    }()
    disposables[0].dispose()  // before its subscription has run
    scheduler.advance()
    #expect(subject.subscriberCount == 1)
    disposables[1].dispose()  // after
    #expect(tracker.liveCount == 0)
    #expect(subject.subscriberCount == 0)
    #expect(scheduler.scheduledCount == 0)
  }
}
