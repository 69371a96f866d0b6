import Dispatch
import Testing

@testable import AsyncSignals

/// RAC's subscriber forgets a disposable handed to it by `didSubscribeWithDisposable:` as soon as that
/// disposable is disposed, so that one long-lived subscriber of many short subscriptions does not grow.
@MainActor
@Suite("A subscriber forgets the subscriptions that have ended")
struct SubscriberDisposablesTests {
  /// Subscribes `subscriber` to a signal that never ends, disposes the subscription, and answers whether the
  /// subscription's disposable is still alive once the test has let go of it.
  private nonisolated func keepsEndedSubscription(_ subscriber: some Subscriber<Int, Never>) -> Bool {
    weak var weakSubscription: (any Disposable)?
    do {
      let subscription = Signal<Int, Never>.never.subscribe(subscriber)
      weakSubscription = subscription
      subscription.dispose()
    }
    return weakSubscription != nil
  }

  @Test("the subscriber of a create body forgets a disposed subscription made with it")
  func createSubscriber() {
    let kept = Locked<[Bool]>([])
    let signal = Signal<Int, Never>.create { subscriber in
      for _ in 0..<3 { kept.append(self.keepsEndedSubscription(subscriber)) }
      return nil
    }
    let subscription = signal.subscribeNext { _ in }
    #expect(kept.value == [false, false, false])
    subscription.dispose()
  }

  @Test("a subject forgets a disposed subscription made with it, and stays open")
  func subject() {
    let subject = Subject<Int, Never>()
    #expect(!keepsEndedSubscription(subject))
    let received = Locked<[Int]>([])
    subject.subscribeNext { received.append($0) }
    subject.sendNext(1)
    #expect(received.value == [1])
  }

  @Test("a replay subject and a behaviour subject forget a disposed subscription made with them")
  func replayingSubjects() {
    #expect(!keepsEndedSubscription(ReplaySubject<Int, Never>()))
    #expect(!keepsEndedSubscription(BehaviorSubject<Int, Never>(value: 0)))
  }

  @Test("a subscriber made from closures forgets a disposed subscription made with it")
  func closureSubscriber() {
    let subscriber = ClosureSubscriber<Int, Never>(next: { _ in }, error: { _ in }, completed: {})
    #expect(!keepsEndedSubscription(subscriber))
    #expect(!keepsEndedSubscription(subscriber))
  }

  @Test("a subscriber forgets a disposed closure subscription through catch (a compound) that it was handed")
  func closureSubscriptionThroughCompound() {
    let subscriber = ClosureSubscriber<Int, Never>(next: { _ in }, error: { _ in }, completed: {})
    weak var weakSubscription: (any Disposable)?
    do {
      let caught = Subject<Int, TestError>().catch(to: Signal<Int, Never>.never)
      let subscription = caught.subscribeNext({ _ in }, completed: {})
      subscriber.didSubscribe(with: subscription)
      weakSubscription = subscription
      subscription.dispose()
    }
    #expect(weakSubscription == nil)
  }

  @Test("1 000 000 short subscriptions into one subject and one create subscriber, from two threads, keep none")
  func millionShortSubscriptions() {
    let subject = Subject<Int, Never>()
    let sinkBox = Locked<Sink<Int, Never>?>(nil)
    Signal<Int, Never>.create { subscriber in
      sinkBox.value = subscriber as? Sink<Int, Never>
      return nil
    }.subscribeNext { _ in }
    let sink = sinkBox.value!
    let feed = Subject<Int, Never>()
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      let target: any Subscriber<Int, Never> = thread == 0 ? subject : sink
      for index in 0..<250_000 {
        feed.subscribe(target).dispose()
        Signal<Int, Never>.never.subscribe(target).dispose()
        if index % 1_000 == 0 { feed.sendNext(index) }
      }
    }
    #expect(subject.storage.state.withLock { $0.upstream.count } == 0)
    #expect(sink.childCount == 0)
    #expect(feed.subscriberCount == 0)
  }
}
