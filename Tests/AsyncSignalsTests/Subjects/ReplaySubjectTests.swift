import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("ReplaySubject")
struct ReplaySubjectTests {
  @Test("replays every value to a late subscriber, then delivers live values")
  func replaysThenLive() {
    let subject = ReplaySubject<Int, TestError>()
    subject.sendNext(1)
    subject.sendNext(2)
    let late = EventRecorder(subject)
    subject.sendNext(3)
    #expect(late.values == [1, 2, 3])
  }

  @Test("replays the values and the completion after the subject has completed")
  func replayAfterCompletion() {
    let subject = ReplaySubject<Int, TestError>()
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendCompleted()
    subject.sendNext(3)
    let late = EventRecorder(subject)
    #expect(late.events == [.next(1), .next(2), .completed])
    #expect(subject.subscriberCount == 0)
  }

  @Test("replays the values and the error after the subject has failed")
  func replayAfterError() {
    let subject = ReplaySubject<Int, TestError>()
    subject.sendNext(1)
    subject.sendError(TestError(code: 7))
    let late = EventRecorder(subject)
    #expect(late.events == [.next(1), .error(TestError(code: 7))])
  }

  @Test("keeps only the latest `capacity` values")
  func capacityTrimming() {
    let subject = ReplaySubject<Int, Never>(capacity: 2)
    for value in 1...5 { subject.sendNext(value) }
    #expect(EventRecorder(subject).values == [4, 5])
    subject.sendCompleted()
    #expect(EventRecorder(subject).events == [.next(4), .next(5), .completed])
  }

  @Test("capacity 0 replays only the terminal event")
  func capacityZero() {
    let subject = ReplaySubject<Int, Never>(capacity: 0)
    subject.sendNext(1)
    #expect(EventRecorder(subject).values.isEmpty)
    subject.sendCompleted()
    #expect(EventRecorder(subject).events == [.completed])
  }

  @Test("trims before delivering: a subscriber joining during a delivery is replayed `capacity` values, once each")
  func trimsBeforeLiveDelivery() {
    // RAC trimmed after delivering, so this subscriber was replayed [1, 2, 3] with capacity 2.
    let subject = ReplaySubject<Int, Never>(capacity: 2)
    subject.sendNext(1)
    subject.sendNext(2)
    let joined = Locked<[Int]>([])
    subject.subscribeNext { value in
      if value == 3 { subject.subscribeNext { joined.append($0) } }
    }
    subject.sendNext(3)
    subject.sendNext(4)
    #expect(joined.value == [2, 3, 4])
  }

  @Test("a value sent from a callback reaches every subscriber, and later subscribers, after the value in progress")
  func reentrantSend() {
    let subject = ReplaySubject<Int, Never>()
    let first = Locked<[Int]>([])
    let second = Locked<[Int]>([])
    subject.subscribeNext { value in
      first.append(value)
      if value == 1 { subject.sendNext(2) }
    }
    subject.subscribeNext { second.append($0) }
    subject.sendNext(1)
    #expect(first.value == [1, 2])
    #expect(second.value == [1, 2])
    #expect(EventRecorder(subject).values == [1, 2])
  }

  @Test("a subscriber that subscribes from its callback is replayed at once and then sees each live value once")
  func reentrantSubscribe() {
    let subject = ReplaySubject<Int, Never>()
    let log = Locked<[String]>([])
    subject.subscribeNext { value in
      log.append("outer \(value)")
      if value == 2 {
        subject.sendNext(3)  // queued behind 2
        subject.subscribeNext { log.append("inner \($0)") }
      }
    }
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendNext(4)
    #expect(log.value == ["outer 1", "outer 2", "inner 1", "inner 2", "outer 3", "inner 3", "outer 4", "inner 4"])
  }

  @Test("a subscriber that subscribes and sends from a replayed value's callback keeps the order")
  func reentrantDuringReplay() {
    let subject = ReplaySubject<Int, Never>()
    subject.sendNext(1)
    subject.sendNext(2)
    let log = Locked<[Int]>([])
    subject.subscribeNext { value in
      log.append(value)
      if value == 1 { subject.sendNext(3) }  // sent during the replay: queued behind the replay
    }
    #expect(log.value == [1, 2, 3])
  }

  @Test("a subscriber that stops during the replay (as take(2) does) receives nothing more and is removed")
  func stopDuringReplay() {
    let subject = ReplaySubject<Int, Never>()
    for value in 1...3 { subject.sendNext(value) }
    let log = Locked<[Int]>([])
    _ = subject.attach { event in
      guard let value = event.value else { return .proceed }
      log.append(value)
      return value == 2 ? .stop : .proceed
    }
    subject.sendNext(4)
    #expect(log.value == [1, 2])
    #expect(subject.subscriberCount == 0)
  }

  @Test("off any scheduler, the replay runs at once on the subscribing thread (RAC scheduled it; deliberate)")
  func replayAtOnceOffAnyScheduler() {
    let subject = ReplaySubject<Int, Never>()
    subject.sendNext(1)
    subject.sendCompleted()
    let log = Locked<[String]>([])
    onPlainThread {
      subject.subscribeNext(
        { log.append("\($0), current: \(Schedulers.current == nil ? "none" : "some")") },
        completed: { log.append("completed") })
      log.append("subscribed")
    }
    #expect(log.value == ["1, current: none", "completed", "subscribed"])
  }

  @Test("as a subscriber it disposes its upstream subscription when it terminates")
  func disposesUpstream() {
    let subject = ReplaySubject<Int, Never>()
    let upstream = Subject<Int, Never>()
    upstream.subscribe(subject)
    #expect(upstream.subscriberCount == 1)
    upstream.sendNext(1)
    subject.sendCompleted()
    #expect(upstream.subscriberCount == 0)
    #expect(EventRecorder(subject).events == [.next(1), .completed])
  }

  @Test("disposing a subscription removes the subscriber and releases its closure; so does completion")
  func releasesSubscribers() {
    let tracker = LifetimeTracker()
    let subject = ReplaySubject<Int, Never>()
    subject.sendNext(1)
    do {
      let tracked = tracker.make()
      let disposable = subject.subscribeNext { _ in withExtendedLifetime(tracked) {} }
      let tracked2 = tracker.make()
      subject.subscribeNext { _ in withExtendedLifetime(tracked2) {} }
      #expect(subject.subscriberCount == 2)
      disposable.dispose()
      #expect(subject.subscriberCount == 1)
    }
    #expect(tracker.liveCount == 1)
    subject.sendCompleted()
    #expect(tracker.liveCount == 0)
  }

  @Test("a negative capacity stops with a message naming the argument")
  func negativeCapacity() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ReplaySubject<Int, Never>(capacity: -1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("ReplaySubject(capacity:): capacity must not be negative"))
  }
}
