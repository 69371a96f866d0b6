import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("MulticastConnection")
struct MulticastConnectionTests {
  /// A cold "network request" that counts how many times it runs.
  private func request(runs: Locked<Int>) -> Signal<String, TestError> {
    Signal.create { subscriber in
      runs.increment()
      subscriber.sendNext("response")
      subscriber.sendCompleted()
      return nil
    }
  }

  @Test("RAC's example: a request multicast through a replay subject runs once for two subscribers")
  func networkRequestRunsOnce() {
    let runs = Locked(0)
    let connection = request(runs: runs).multicast(ReplaySubject())
    connection.connect()
    let first = EventRecorder(connection.signal)
    let second = EventRecorder(connection.signal)
    #expect(runs.value == 1)
    #expect(first.events == [.next("response"), .completed])
    #expect(second.events == [.next("response"), .completed])
  }

  @Test("publish: subscribers attached before connect share one subscription; the subject sends nothing before")
  func publish() {
    let source = Subject<Int, Never>()
    let connection = source.publish()
    let first = EventRecorder(connection.signal)
    let second = EventRecorder(connection.signal)
    source.sendNext(0)
    #expect(source.subscriberCount == 0)
    connection.connect()
    #expect(source.subscriberCount == 1)
    source.sendNext(1)
    #expect(first.values == [1] && second.values == [1])
  }

  @Test("connect subscribes once and returns the same disposable every time")
  func connectOnce() {
    let runs = Locked(0)
    let connection = request(runs: runs).publish()
    let first = connection.connect()
    let second = connection.connect()
    #expect(first === second)
    #expect(runs.value == 1)
  }

  @Test("disposing the connection disposes the source subscription, and the connection never reconnects")
  func disposeNeverReconnects() {
    let source = Subject<Int, Never>()
    let connection = source.publish()
    let recorder = EventRecorder(connection.signal)
    connection.connect().dispose()
    #expect(source.subscriberCount == 0)
    connection.connect()
    source.sendNext(1)
    #expect(source.subscriberCount == 0)
    #expect(recorder.events.isEmpty)
  }

  @Test("the subject's terminal event ends the subscribers, and the source subscription is released")
  func sourceTermination() {
    let source = Subject<Int, TestError>()
    let connection = source.publish()
    let recorder = EventRecorder(connection.signal)
    connection.connect()
    source.sendError(TestError(code: 1))
    #expect(recorder.events == [.error(TestError(code: 1))])
    #expect(source.subscriberCount == 0)
  }

  @Test("connect racing from two threads: the source is subscribed once; the second call does not wait for it")
  func connectRace() {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let runs = Locked(0)
    let source = Signal<Int, Never>.create { _ in
      runs.increment()
      entered.signal()
      release.wait()
      return nil
    }
    let connection = source.publish()
    let firstResult = Locked<(any Disposable)?>(nil)
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      // Inside a scheduler's block the body runs synchronously, so this connect blocks inside it.
      ImmediateScheduler.shared.performAsCurrent { firstResult.value = connection.connect() }
    }
    entered.wait()
    let second = connection.connect()  // must return while the first is still inside the subscription
    #expect(firstResult.value == nil)
    release.signal()
    group.wait()
    #expect(firstResult.value === second)
    #expect(runs.value == 1)
  }

  @Test("connect racing from eight threads subscribes once and returns one disposable")
  func connectRaceMany() {
    let runs = Locked(0)
    let source = Signal<Int, Never>.create { _ in
      runs.increment()
      return nil
    }
    for _ in 0..<50 {
      runs.value = 0
      let connection = source.publish()
      let results = Locked<[ObjectIdentifier]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        ImmediateScheduler.shared.performAsCurrent { results.append(ObjectIdentifier(connection.connect())) }
      }
      #expect(runs.value == 1)
      #expect(Set(results.value).count == 1)
    }
  }

  @Test("autoconnect connects on the first subscriber and disconnects, for good, when the count returns to zero")
  func autoconnectRefcount() {
    let source = Subject<Int, Never>()
    let shared = source.publish().autoconnect()
    #expect(source.subscriberCount == 0)
    let first = EventRecorder(shared)
    #expect(source.subscriberCount == 1)
    let second = EventRecorder(shared)
    #expect(source.subscriberCount == 1)
    source.sendNext(1)
    first.dispose()
    #expect(source.subscriberCount == 1)
    source.sendNext(2)
    second.dispose()
    #expect(source.subscriberCount == 0)
    let third = EventRecorder(shared)
    source.sendNext(3)
    #expect(source.subscriberCount == 0)  // never reconnects, as RAC
    #expect(first.values == [1] && second.values == [1, 2] && third.values.isEmpty)
  }

  @Test("autoconnect counts a subscriber that stops (as take does) as gone")
  func autoconnectStop() {
    let source = Subject<Int, Never>()
    let shared = source.publish().autoconnect()
    let received = Locked<[Int]>([])
    _ = shared.attach { event in
      if let value = event.value { received.append(value) }
      return .stop
    }
    #expect(source.subscriberCount == 1)
    source.sendNext(1)
    #expect(received.value == [1])
    #expect(source.subscriberCount == 0)
  }

  @Test("autoconnect releases its subscribers' closures when the source completes")
  func autoconnectReleases() {
    let tracker = LifetimeTracker()
    let source = Subject<Int, Never>()
    let shared = source.publish().autoconnect()
    do {
      let tracked = tracker.make()
      shared.subscribeNext { _ in withExtendedLifetime(tracked) {} }
    }
    #expect(tracker.liveCount == 1)
    source.sendCompleted()
    #expect(tracker.liveCount == 0)
  }
}

@MainActor
@Suite("replay, replayLast, replayLazily, startEagerly, startLazily")
struct ReplayOperatorTests {
  @Test("replay subscribes at once and replays every value and the completion to later subscribers")
  func replay() {
    let runs = Locked(0)
    let source = Signal<Int, Never>.create { subscriber in
      runs.increment()
      subscriber.sendNext(1)
      subscriber.sendNext(2)
      subscriber.sendCompleted()
      return nil
    }
    let replayed = source.replay()
    #expect(runs.value == 1)
    #expect(EventRecorder(replayed).events == [.next(1), .next(2), .completed])
    #expect(EventRecorder(replayed).events == [.next(1), .next(2), .completed])
    #expect(runs.value == 1)
  }

  @Test("replayLast replays only the latest value")
  func replayLast() {
    let source = Subject<Int, Never>()
    let replayed = source.replayLast()
    source.sendNext(1)
    source.sendNext(2)
    #expect(EventRecorder(replayed).values == [2])
  }

  @Test("replayLazily subscribes at the first subscription only, once")
  func replayLazily() {
    let runs = Locked(0)
    let source = Signal<Int, Never>.create { subscriber in
      runs.increment()
      subscriber.sendNext(1)
      return nil
    }
    let replayed = source.replayLazily()
    #expect(runs.value == 0)
    let first = EventRecorder(replayed)
    let second = EventRecorder(replayed)
    #expect(runs.value == 1)
    #expect(first.values == [1] && second.values == [1])
  }

  @Test("startLazily runs the body on the scheduler at the first subscription only, and replays to everyone")
  func startLazily() {
    let scheduler = TestScheduler()
    let runs = Locked(0)
    let onScheduler = Locked(false)
    let signal = Signal<Int, Never>.startLazily(on: scheduler) { subscriber in
      runs.increment()
      onScheduler.value = Schedulers.current === scheduler
      subscriber.sendNext(42)
      subscriber.sendCompleted()
    }
    scheduler.run()
    #expect(runs.value == 0)
    let first = EventRecorder(signal)
    #expect(first.events.isEmpty)  // subscriptions are made on the scheduler
    scheduler.advance()
    let second = EventRecorder(signal)
    scheduler.advance()
    #expect(runs.value == 1 && onScheduler.value)
    #expect(first.events == [.next(42), .completed])
    #expect(second.events == [.next(42), .completed])
  }

  @Test("startLazily: disposing a subscription does not stop the work")
  func startLazilyDisposal() {
    let scheduler = TestScheduler()
    let body = Locked<(any Subscriber<Int, Never>)?>(nil)
    let signal = Signal<Int, Never>.startLazily(on: scheduler) { subscriber in body.value = subscriber }
    let first = EventRecorder(signal)
    scheduler.advance()
    body.value?.sendNext(1)
    first.dispose()
    body.value?.sendNext(2)
    let second = EventRecorder(signal)
    scheduler.advance()
    body.value?.sendCompleted()
    #expect(first.values == [1])
    #expect(second.events == [.next(1), .next(2), .completed])
  }

  @Test("startEagerly runs the body on the scheduler without waiting for a subscriber")
  func startEagerly() {
    let scheduler = TestScheduler()
    let runs = Locked(0)
    let signal = Signal<Int, Never>.startEagerly(on: scheduler) { subscriber in
      runs.increment()
      subscriber.sendNext(7)
      subscriber.sendCompleted()
    }
    #expect(runs.value == 0)
    scheduler.advance()
    #expect(runs.value == 1)
    let late = EventRecorder(signal)
    scheduler.advance()
    #expect(late.events == [.next(7), .completed])
    #expect(runs.value == 1)
  }
}
