import Testing

@testable import AsyncSignals

/// The serial-delivery engine calls its observer without retaining it around each event (Core/Sink.swift): a
/// callback that ends its own subscription must still find everything it captured alive until it returns, and
/// then release it (guarantees 6 and 8).
@MainActor
@Suite("Sink")
struct SinkTests {
  @Test("a callback that completes its own subscription keeps its captures until it returns, then releases them")
  func nestedTerminalEvent() {
    let tracker = LifetimeTracker()
    let subscriberBox = Locked<(any Subscriber<Int, Never>)?>(nil)
    let signal = Signal<Int, Never>.create { subscriber in
      subscriberBox.value = subscriber
      return nil
    }
    let log = Locked<[String]>([])
    let tracked = tracker.make()
    let subscription = signal.subscribeNext({ [tracked] _ in
      subscriberBox.value?.sendCompleted()
      // Still inside the observer, after its subscription ended under it.
      log.append(tracker.liveCount == 1 ? "captures alive" : "captures freed")
      withExtendedLifetime(tracked) {}
    }, completed: { log.append("completed") })
    _ = consume tracked
    subscriberBox.value?.sendNext(1)
    #expect(log.value == ["completed", "captures alive"])
    #expect(tracker.liveCount == 0)
    #expect(subscription.isDisposed)
    subscriberBox.value?.sendNext(2)
    #expect(log.value == ["completed", "captures alive"])
  }

  @Test("a callback that disposes its own subscription keeps its captures until it returns, then releases them")
  func nestedDisposal() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, Never>()
    let subscription = Locked<(any Disposable)?>(nil)
    let log = Locked<[String]>([])
    let tracked = tracker.make()
    subscription.value = subject.subscribeNext { [tracked] value in
      subscription.value?.dispose()
      log.append("\(value): " + (tracker.liveCount == 1 ? "captures alive" : "captures freed"))
      withExtendedLifetime(tracked) {}
    }
    _ = consume tracked
    subject.sendNext(1)
    #expect(log.value == ["1: captures alive"])
    #expect(tracker.liveCount == 0)
    #expect(subject.subscriberCount == 0)
    subject.sendNext(2)
    #expect(log.value == ["1: captures alive"])
  }

  @Test("nested sends three deep deliver in order and release the observer once, after the outermost returns")
  func nestedSends() {
    let tracker = LifetimeTracker()
    let subscriberBox = Locked<(any Subscriber<Int, Never>)?>(nil)
    let signal = Signal<Int, Never>.create { subscriber in
      subscriberBox.value = subscriber
      return nil
    }
    let log = Locked<[String]>([])
    let tracked = tracker.make()
    signal.subscribeNext({ [tracked] value in
      log.append("begin \(value)")
      if value < 3 { subscriberBox.value?.sendNext(value + 1) } else { subscriberBox.value?.sendCompleted() }
      log.append("end \(value): " + (tracker.liveCount == 1 ? "alive" : "freed"))
      withExtendedLifetime(tracked) {}
    }, completed: { log.append("completed") })
    _ = consume tracked
    subscriberBox.value?.sendNext(1)
    #expect(
      log.value == [
        "begin 1", "begin 2", "begin 3", "completed", "end 3: alive", "end 2: alive", "end 1: alive",
      ])
    #expect(tracker.liveCount == 0)
  }

  /// How a subscription of a test below ends.
  enum Ending: String, CaseIterable, CustomTestStringConvertible {
    case disposal, completion, failure
    var testDescription: String { rawValue }
  }

  @Test(
    "closures that subscribeNext hands a subject's or a create body's sink in a box receive every event and are released when the subscription ends",
    arguments: Ending.allCases)
  func boxedSubscriberClosures(ending: Ending) {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, TestError>()
    let created = LoopbackSource<Int, TestError>()  // a `create` body that never lets go of its subscriber
    let neverFailing = Subject<Int, Never>()
    let log = Locked<[String]>([])
    let subscriptions: [any Disposable] = {
      let tracked = tracker.make()
      return [
        subject.subscribeNext(
          { [tracked] in log.append("subject \($0)"); withExtendedLifetime(tracked) {} },
          error: { [tracked] _ in log.append("subject failed"); withExtendedLifetime(tracked) {} },
          completed: { [tracked] in log.append("subject completed"); withExtendedLifetime(tracked) {} }),
        created.signal.subscribeNext(
          { [tracked] in log.append("create \($0)"); withExtendedLifetime(tracked) {} },
          error: { [tracked] _ in log.append("create failed"); withExtendedLifetime(tracked) {} },
          completed: { [tracked] in log.append("create completed"); withExtendedLifetime(tracked) {} }),
        neverFailing.subscribeNext { [tracked] in log.append("next-only \($0)"); withExtendedLifetime(tracked) {} },
      ]
    }()
    subject.sendNext(1)
    created.sendNext(1)
    neverFailing.sendNext(1)
    #expect(tracker.liveCount == 1)
    switch ending {
    case .disposal:
      for subscription in subscriptions { subscription.dispose() }
    case .completion:
      subject.sendCompleted()
      created.sendCompleted()
      neverFailing.sendCompleted()
    case .failure:
      subject.sendError(TestError())
      created.sendError(TestError())
      neverFailing.sendCompleted()
    }
    subject.sendNext(2)
    created.sendNext(2)
    neverFailing.sendNext(2)
    let ends: [String] =
      switch ending {
      case .disposal: []
      case .completion: ["subject completed", "create completed"]
      case .failure: ["subject failed", "create failed"]
      }
    #expect(log.value == ["subject 1", "create 1", "next-only 1"] + ends)
    #expect(tracker.liveCount == 0)
    #expect(subscriptions.allSatisfy { $0.isDisposed })
    #expect(subject.subscriberCount == 0 && neverFailing.subscriberCount == 0)
  }
}
