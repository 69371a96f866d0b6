import Testing

@testable import AsyncSignals

@MainActor
@Suite("Side effects: doNext, doError, doCompleted, initially, finally")
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
}
