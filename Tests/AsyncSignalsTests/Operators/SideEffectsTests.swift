import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("Side effects: doNext, doError, doCompleted, initially, doSubscribed, finally, doDisposed")
struct SideEffectsTests {
  @Test("-doNext: runs the block for each value before forwarding it")
  func doNext() {
    let log = Locked<[String]>([])
    let source = SyncSource<Int, TestError>([1, 2])
    source.signal.doNext { log.append("do \($0)") }.subscribeNext(
      { log.append("next \($0)") }, error: { _ in log.append("error") }, completed: { log.append("completed") })
    #expect(log.value == ["do 1", "next 1", "do 2", "next 2", "completed"])
  }

  @Test("-doError: runs the block with the error before forwarding it; values pass untouched")
  func doError() {
    let log = Locked<[String]>([])
    let source = SyncSource<Int, TestError>([1], then: .error(TestError(code: 2)))
    source.signal.doError { log.append("do \($0.code)") }.subscribeNext(
      { log.append("next \($0)") }, error: { log.append("error \($0.code)") })
    #expect(log.value == ["next 1", "do 2", "error 2"])
  }

  @Test("-doCompleted: runs the block before forwarding completion, and not on error")
  func doCompleted() {
    let log = Locked<[String]>([])
    SyncSource<Int, TestError>([1]).signal.doCompleted { log.append("do") }.subscribeNext(
      { log.append("next \($0)") }, error: { _ in log.append("error") }, completed: { log.append("completed") })
    #expect(log.value == ["next 1", "do", "completed"])
    let failed = Locked(0)
    SyncSource<Int, TestError>([], then: .error(TestError())).signal.doCompleted { failed.increment() }
      .subscribeError { _ in }
    #expect(failed.value == 0)
  }

  @Test("-initially: runs the block at the start of each subscription, before the source is subscribed")
  func initially() {
    let log = Locked<[String]>([])
    let source = Signal<Int, Never>.create { subscriber in
      log.append("subscribed")
      subscriber.sendCompleted()
      return nil
    }
    let signal = source.initially { log.append("initially") }
    #expect(log.value.isEmpty)
    signal.subscribeCompleted {}
    signal.subscribeCompleted {}
    #expect(log.value == ["initially", "subscribed", "initially", "subscribed"])
  }

  @Test("doSubscribed: runs once the subscriber is attached, so a value the action sends to a subject reaches it")
  func doSubscribedAfterAttach() {
    let subject = Subject<String, Never>()
    let before = EventRecorder(subject.initially { subject.sendNext("from initially") })
    let after = EventRecorder(subject.doSubscribed { subject.sendNext("from doSubscribed") })
    #expect(before.values == ["from doSubscribed"])  // initially's value went out before its own subscriber was there
    #expect(after.values == ["from doSubscribed"])
  }

  @Test("doSubscribed: runs once per subscription, after a synchronous source has sent, before subscribe returns")
  func doSubscribedOrder() {
    let log = Locked<[String]>([])
    let signal = Signal<Int, Never>.from(1...2).doSubscribed { log.append("subscribed") }
    signal.subscribeNext({ log.append("\($0)") }, completed: { log.append("completed") })
    #expect(log.value == ["1", "2", "completed", "subscribed"])
    signal.subscribeNext { _ in }
    #expect(log.value.filter { $0 == "subscribed" }.count == 2)
  }

  @Test("doSubscribed: events pass through unchanged, and disposal disposes the source")
  func doSubscribedPassesThrough() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.doSubscribed {})
    subject.sendNext(1)
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
    subject.sendNext(2)
    #expect(recorder.events == [.next(1)])
  }

  @Test("-finally: runs the block on completion or error, before the terminal event is forwarded")
  func finally() {
    let log = Locked<[String]>([])
    SyncSource<Int, TestError>([1]).signal.finally { log.append("finally") }.subscribeNext(
      { log.append("next \($0)") }, error: { _ in log.append("error") }, completed: { log.append("completed") })
    SyncSource<Int, TestError>([], then: .error(TestError())).signal.finally { log.append("finally") }
      .subscribeError { _ in log.append("error") }
    #expect(log.value == ["next 1", "finally", "completed", "finally", "error"])
  }

  @Test("-finally: does not run when the subscription is disposed")
  func finallyNotOnDisposal() {
    let runs = Locked(0)
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.finally { runs.increment() })
    recorder.dispose()
    #expect(runs.value == 0)
    #expect(subject.subscriberCount == 0)
  }

  @Test("disposing any side-effect operator disposes the source")
  func disposal() {
    let subject = Subject<Int, TestError>()
    let recorders = [
      EventRecorder(subject.doNext { _ in }),
      EventRecorder(subject.doError { _ in }),
      EventRecorder(subject.doCompleted {}),
      EventRecorder(subject.initially {}),
    ]
    #expect(subject.subscriberCount == 4)
    for recorder in recorders { recorder.dispose() }
    #expect(subject.subscriberCount == 0)
  }

  @Test("side-effect closures are released when the subscription ends (guarantee 8)")
  func closuresReleased() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, TestError>()
    let recorder: EventRecorder<Int, TestError> = {
      let tracked = tracker.make()
      return EventRecorder(
        subject.doNext { _ in _ = tracked }.doError { _ in _ = tracked }.doCompleted { _ = tracked }
          .initially { _ = tracked }.finally { _ = tracked })
    }()
    // The operators' signals hold the closures only through the subscription here.
    #expect(tracker.liveCount == 1)
    subject.sendCompleted()
    #expect(recorder.isCompleted)
    #expect(tracker.liveCount == 0)
  }

  // MARK: doDisposed

  /// A source that never ends by itself, and logs its subscription's cleanup; `send` drives its subscriber.
  final class LoggedSource: Sendable {
    let signal: Signal<Int, TestError>
    private let subscriber = Locked<(any Subscriber<Int, TestError>)?>(nil)

    init(_ log: Locked<[String]>) {
      let box = subscriber
      signal = .create { subscriber in
        box.value = subscriber
        return ActionDisposable { log.append("source disposed") }
      }
    }

    func send(_ event: Event<Int, TestError>) { subscriber.value?.send(event) }
  }

  @Test("doDisposed: runs once when the subscription is disposed, before the source's subscription is disposed")
  func doDisposedOnDisposal() {
    let log = Locked<[String]>([])
    let source = LoggedSource(log)
    let subscription = source.signal.doDisposed { log.append("disposed") }.subscribeNext(
      { log.append("next \($0)") }, error: { _ in log.append("error") }, completed: { log.append("completed") })
    source.send(.next(1))
    #expect(log.value == ["next 1"])
    subscription.dispose()
    subscription.dispose()
    source.send(.next(2))
    #expect(log.value == ["next 1", "disposed", "source disposed"])
    #expect(subscription.isDisposed)
  }

  @Test("doDisposed: does not run on completion or failure, nor when the subscription is disposed after either")
  func doDisposedNotAfterTerminal() {
    let log = Locked<[String]>([])
    let completing = LoggedSource(log)
    let subscription = completing.signal.doDisposed { log.append("disposed") }.subscribeNext(
      { log.append("next \($0)") }, error: { _ in log.append("error") }, completed: { log.append("completed") })
    completing.send(.next(1))
    completing.send(.completed)
    subscription.dispose()
    let failing = LoggedSource(log)
    // `subscribe(_:)` (the recorder) disposes its subscription after the terminal event, as RAC's subscriber does.
    let recorder = EventRecorder(failing.signal.doDisposed { log.append("disposed") })
    failing.send(.error(TestError(code: 1)))
    recorder.dispose()
    #expect(log.value == ["next 1", "completed", "source disposed", "source disposed"])
    #expect(recorder.events == [.error(TestError(code: 1))])
  }

  @Test("doDisposed: runs when take(_:) downstream has its values, after take's events, before the source's disposal")
  func doDisposedOnTake() {
    let log = Locked<[String]>([])
    let source = LoggedSource(log)
    source.signal.doDisposed { log.append("disposed") }.take(1).subscribeNext(
      { log.append("next \($0)") }, error: { _ in log.append("error") }, completed: { log.append("completed") })
    source.send(.next(1))
    source.send(.next(2))
    #expect(log.value == ["next 1", "completed", "disposed", "source disposed"])
  }

  @Test("doDisposed: runs when take(until:) downstream fires; its trigger's completion is not the source's")
  func doDisposedOnTakeUntil() {
    let log = Locked<[String]>([])
    let source = LoggedSource(log)
    let trigger = Subject<Void, TestError>()
    let recorder = EventRecorder(source.signal.doDisposed { log.append("disposed") }.take(until: trigger))
    source.send(.next(1))
    trigger.sendNext(())
    #expect(recorder.events == [.next(1), .completed])
    #expect(log.value == ["disposed", "source disposed"])
  }

  @Test("doDisposed: a subscription disposed from inside its own value callback runs it once, and receives no more")
  func doDisposedReentrant() {
    let log = Locked<[String]>([])
    let source = LoggedSource(log)
    let subscription = Locked<(any Disposable)?>(nil)
    subscription.value = source.signal.doDisposed { log.append("disposed") }.subscribeNext(
      { value in
        log.append("next \(value)")
        subscription.value?.dispose()
        source.send(.next(value + 1))
      }, error: { _ in log.append("error") })
    source.send(.next(1))
    source.send(.next(5))
    #expect(log.value == ["next 1", "disposed", "source disposed"])
  }

  @Test("doDisposed then finally: exactly one of the two actions runs, whichever way the subscription ends")
  func doDisposedAndFinallyCoverEveryEnding() {
    let runs = Locked(0)
    func tracked(_ source: LoggedSource) -> Signal<Int, TestError> {
      source.signal.doDisposed { runs.increment() }.finally { runs.increment() }
    }
    let log = Locked<[String]>([])
    let sources = (0..<4).map { _ in LoggedSource(log) }
    let completed = EventRecorder(tracked(sources[0]))
    let failed = EventRecorder(tracked(sources[1]))
    let disposed = EventRecorder(tracked(sources[2]))
    let taken = EventRecorder(tracked(sources[3]).take(1))
    sources[0].send(.completed)
    sources[1].send(.error(TestError()))
    disposed.dispose()
    sources[3].send(.next(1))
    #expect(completed.isCompleted && failed.didFail && disposed.events.isEmpty && taken.isCompleted)
    #expect(runs.value == 4)
    #expect(log.value.count == 4)  // every source's subscription was disposed
  }

  @Test("doDisposed then finally: a disposal that meets a completion already on its way runs doDisposed's action only")
  nonisolated func doDisposedWinsOverCompletionInFlight() async {  // async and nonisolated: off the main actor, which it would block
    // The completion has passed the source's own check (it is held in doCompleted, between the source and
    // doDisposed) when another thread disposes the subscription. The disposal wins: its action runs, and the
    // completion goes no further, so finally's action does not run as well.
    let log = Locked<[String]>([])
    let source = LoggedSource(log)
    let checkpoint = Checkpoint()
    let subscription = source.signal
      .doCompleted { checkpoint.pass() }
      .doDisposed { log.append("disposed") }
      .finally { log.append("finally") }
      .subscribeNext({ _ in }, error: { _ in }, completed: { log.append("completed") })
    let completing = startPlainThread { source.send(.completed) }
    checkpoint.waitUntilHeld()
    subscription.dispose()
    checkpoint.release()
    completing.wait()
    #expect(log.value.filter { $0 != "source disposed" } == ["disposed"])
  }

  @Test("doDisposed then finally: racing a completion against a disposal runs exactly one of the two actions")
  nonisolated func doDisposedAndFinallyRace() async {  // async and nonisolated: off the main actor, which it would block
    for _ in 0..<200 {
      let runs = Locked(0)
      let log = Locked<[String]>([])
      let source = LoggedSource(log)
      let subscription = source.signal.doDisposed { runs.increment() }.finally { runs.increment() }
        .subscribeNext({ _ in }, error: { _ in })
      let go = DispatchSemaphore(value: 0)
      let completing = startPlainThread {
        go.wait()
        source.send(.completed)
      }
      go.signal()
      subscription.dispose()
      completing.wait()
      #expect(runs.value == 1)
    }
  }

  @Test("doDisposed: the action is released when the subscription ends, disposed or not (guarantee 8)")
  func doDisposedReleasesAction() {
    let tracker = LifetimeTracker()
    let log = Locked<[String]>([])
    let sources = (0..<3).map { _ in LoggedSource(log) }
    let subscriptions: [any Disposable] = {
      let tracked = tracker.make()
      return sources.map { source in
        source.signal.doDisposed { _ = tracked }.take(2).subscribeNext({ _ in }, error: { _ in })
      }
    }()
    #expect(tracker.liveCount == 1)
    sources[0].send(.completed)  // its disposable is still held, and never disposed
    sources[1].send(.next(1))
    sources[1].send(.next(2))  // take(2) stops it
    #expect(tracker.liveCount == 1)
    subscriptions[2].dispose()
    #expect(tracker.liveCount == 0)
  }
}
