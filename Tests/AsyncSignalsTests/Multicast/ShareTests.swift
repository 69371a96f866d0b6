import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("share(replay:): connects on the first subscriber, disconnects after the last, reconnects on the next")
struct ShareTests {
  /// A cold source that counts its runs and its live subscriptions, and sends what `feed` sends it.
  private final class Source: Sendable {
    let runs = Locked(0)
    let live = Locked(0)
    let feed = Subject<Int, TestError>()

    /// Attaches at once on every thread (a `create` body would wait for the subscription scheduler off a task).
    var signal: Signal<Int, TestError> {
      feed
        .initially {
          self.runs.increment()
          self.live.withLock { $0 += 1 }
        }
        .doDisposed { self.live.withLock { $0 -= 1 } }
        .finally { self.live.withLock { $0 -= 1 } }
    }
  }

  @Test("three subscribers share one run of a cold source; each receives what is sent after it subscribed")
  func sharesOneRun() {
    let source = Source()
    let shared = source.signal.share()
    let a = EventRecorder(shared)
    source.feed.sendNext(1)
    let b = EventRecorder(shared)
    let c = EventRecorder(shared)
    source.feed.sendNext(2)
    #expect(source.runs.value == 1)
    #expect(a.values == [1, 2])
    #expect(b.values == [2] && c.values == [2])
  }

  @Test("the last subscriber leaving disposes the source subscription; the next one connects again")
  func reconnects() {
    let source = Source()
    let shared = source.signal.share()
    let a = EventRecorder(shared)
    let b = EventRecorder(shared)
    a.dispose()
    #expect(source.live.value == 1)  // b still counts
    b.dispose()
    #expect(source.live.value == 0)
    let c = EventRecorder(shared)
    #expect(source.runs.value == 2)
    #expect(source.live.value == 1)
    source.feed.sendNext(3)
    #expect(c.values == [3])
    #expect(a.values.isEmpty && b.values.isEmpty)
  }

  @Test("a subscriber that stops, as take(1) stops, counts as gone")
  func stoppingSubscriberLeaves() {
    let source = Source()
    let shared = source.signal.share()
    let first = EventRecorder(shared.take(1))
    source.feed.sendNext(1)
    #expect(first.events == [.next(1), .completed])
    #expect(source.live.value == 0)
    _ = EventRecorder(shared)
    #expect(source.runs.value == 2)
  }

  @Test("replay: a later subscriber first receives the latest values of the live connection")
  func replay() {
    let source = Source()
    let shared = source.signal.share(replay: 2)
    let a = EventRecorder(shared)
    for value in 1...3 { source.feed.sendNext(value) }
    let b = EventRecorder(shared)
    source.feed.sendNext(4)
    #expect(a.values == [1, 2, 3, 4])
    #expect(b.values == [2, 3, 4])
  }

  @Test("the replay's scope is the connection: after a reconnection nothing from the earlier one is replayed")
  func replayScope() {
    let source = Source()
    let shared = source.signal.share(replay: 2)
    let a = EventRecorder(shared)
    source.feed.sendNext(1)
    a.dispose()  // disconnects
    let b = EventRecorder(shared)
    #expect(b.values.isEmpty)
    source.feed.sendNext(2)
    let c = EventRecorder(shared)
    #expect(b.values == [2] && c.values == [2])
  }

  @Test("the source's completion reaches every subscriber and ends the connection; the next subscriber runs it again")
  func completionEndsTheConnection() {
    let runs = Locked(0)
    let shared = Signal<Int, Never>.create { subscriber in
      runs.increment()
      subscriber.sendNext(runs.value)
      subscriber.sendCompleted()
      return nil
    }.share(replay: 1)
    let first = EventRecorder(shared)
    let second = EventRecorder(shared)
    #expect(first.events == [.next(1), .completed])
    #expect(second.events == [.next(2), .completed])  // a new connection: the first had ended, replay and all
    #expect(runs.value == 2)
  }

  @Test("a failure reaches every subscriber and ends the connection")
  func failureEndsTheConnection() {
    let source = Source()
    let shared = source.signal.share()
    let a = EventRecorder(shared)
    let b = EventRecorder(shared)
    source.feed.sendError(TestError(code: 1))
    #expect(a.events == [.error(TestError(code: 1))] && b.events == [.error(TestError(code: 1))])
    #expect(source.live.value == 0)
  }

  @Test("a subscriber that resubscribes from the completion's callback, before the others hear of it, starts a new run")
  func resubscribeFromCompletion() {
    let runs = Locked(0)
    let first = Subject<Int, Never>()
    let source = Signal<Int, Never>.create { subscriber in
      guard runs.increment() > 1 else { return first.subscribe(subscriber) }
      subscriber.sendNext(runs.value)
      return nil
    }
    let shared = source.share()
    let again = Locked<EventRecorder<Int, Never>?>(nil)
    shared.subscribeNext({ _ in }, completed: { again.value = EventRecorder(shared) })
    let other = EventRecorder(shared)  // still counts on the first connection while the first callback runs
    first.sendCompleted()
    #expect(other.events == [.completed])
    #expect(again.value?.events == [.next(2)])  // not the first connection's completion
    #expect(runs.value == 2)
  }

  @Test("a subscriber that resubscribes from the completion's callback starts a new connection (repeat)")
  func repeatReconnects() {
    let runs = Locked(0)
    let source = Signal<Int, Never>.create { subscriber in
      runs.increment()
      subscriber.sendNext(1)
      subscriber.sendNext(2)
      subscriber.sendCompleted()
      return nil
    }
    let recorder = EventRecorder(source.share().repeat().take(5))
    #expect(recorder.values == [1, 2, 1, 2, 1])
    #expect(recorder.isCompleted)
    #expect(runs.value == 3)
  }

  @Test("a subscriber that arrives while the last one's disconnect runs waits for it: connections never overlap")
  func connectionsNeverOverlap() {
    let live = Locked(0)
    let most = Locked(0)
    let runs = Locked(0)
    let shared = Locked<Signal<Int, Never>?>(nil)
    let late = Locked<EventRecorder<Int, Never>?>(nil)
    let source = Signal<Int, Never>.create { subscriber in
      let now = live.withLock { $0 += 1; return $0 }
      most.withLock { $0 = max($0, now) }
      subscriber.sendNext(runs.increment())
      return ActionDisposable {
        // A subscriber arrives in the middle of the disconnect (here reentrantly; in an app, on another thread).
        if late.value == nil, let shared = shared.value { late.value = EventRecorder(shared) }
        live.withLock { $0 -= 1 }
      }
    }
    shared.value = source.share()
    let first = EventRecorder(shared.value!)
    first.dispose()
    #expect(most.value == 1)  // the second connection was made once the first was gone
    #expect(runs.value == 2 && live.value == 1)
    #expect(first.values == [1])
    #expect(late.value?.values == [2])
    late.value?.dispose()
    #expect(live.value == 0)
  }

  @Test("each subscriber is attached before the source is subscribed: the first misses nothing sent at once")
  func firstSubscriberMissesNothing() {
    let shared = Signal<Int, Never>.from(1...3).share()
    let first = EventRecorder(shared)
    #expect(first.events == [.next(1), .next(2), .next(3), .completed])
  }

  @Test("a hot source: disposal of the last subscriber unsubscribes from it")
  func hotSource() {
    let clicks = Subject<Int, Never>()
    let shared = clicks.share()
    let a = shared.subscribeNext { _ in }
    let b = shared.subscribeNext { _ in }
    #expect(clicks.subscriberCount == 1)
    a.dispose()
    b.dispose()
    #expect(clicks.subscriberCount == 0)
  }

  @Test("the subscribers' closures are released when they leave, and the source's once disconnected (guarantee 8)")
  func releasesClosures() {
    let tracker = LifetimeTracker()
    let feed = Subject<Int, Never>()
    let shared = feed.share(replay: 1)
    let subscriptions: [any Disposable] = {
      let tracked = tracker.make()
      return (0..<3).map { _ in shared.subscribeNext { _ in _ = tracked } }
    }()
    feed.sendNext(1)
    #expect(tracker.liveCount == 1)
    for subscription in subscriptions { subscription.dispose() }
    #expect(tracker.liveCount == 0)
    #expect(feed.subscriberCount == 0)
  }

  @Test("subscribers arriving and leaving on many threads: every source subscription ends with the last subscriber")
  nonisolated func concurrentChurn() {
    let source = Source()
    let shared = source.signal.share()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for round in 0..<200 {
        let subscription = shared.subscribeNext({ _ in }, error: { _ in })
        if round.isMultiple(of: 3) { source.feed.sendNext(thread) }
        subscription.dispose()
      }
    }
    #expect(source.live.value == 0)
    #expect(source.runs.value >= 1)
  }
}
