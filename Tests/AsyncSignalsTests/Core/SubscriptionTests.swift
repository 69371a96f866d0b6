import Testing

@testable import AsyncSignals

@MainActor
@Suite("Subscribing")
struct SubscriptionTests {
  private let numbers = Signal<Int, TestError>.create { subscriber in
    subscriber.sendNext(1)
    subscriber.sendNext(2)
    subscriber.sendCompleted()
    return nil
  }

  private let failing = Signal<Int, TestError>.create { subscriber in
    subscriber.sendNext(1)
    subscriber.sendError(TestError(code: 9))
    return nil
  }

  @Test("subscribeNext(_:error:completed:) sees every event")
  func allThree() {
    let log = Locked<[String]>([])
    numbers.subscribeNext({ log.append("\($0)") }, error: { log.append("\($0)") }, completed: { log.append("done") })
    failing.subscribeNext({ log.append("\($0)") }, error: { log.append("\($0)") }, completed: { log.append("done") })
    #expect(log.value == ["1", "2", "done", "1", "TestError(9)"])
  }

  @Test("subscribeNext(_:error:) sees values and the failure")
  func nextAndError() {
    let log = Locked<[String]>([])
    failing.subscribeNext({ log.append("\($0)") }, error: { log.append("\($0)") })
    #expect(log.value == ["1", "TestError(9)"])
  }

  @Test("subscribeError(_:) and subscribeError(_:completed:) see the terminal event only")
  func errorOnly() {
    let log = Locked<[String]>([])
    failing.subscribeError { log.append("\($0)") }
    numbers.subscribeError({ log.append("\($0)") }, completed: { log.append("done") })
    #expect(log.value == ["TestError(9)", "done"])
  }

  @Test("signals that cannot fail also offer subscribeNext(_:), subscribeNext(_:completed:) and subscribeCompleted(_:)")
  func neverFailing() {
    let log = Locked<[String]>([])
    let values = Signal<Int, Never>.return(5)
    values.subscribeNext { log.append("\($0)") }
    values.subscribeNext({ log.append("\($0)") }, completed: { log.append("done") })
    values.subscribeCompleted { log.append("completed") }
    #expect(log.value == ["5", "5", "done", "completed"])
  }

  @Test("a subscriber receives its disposable before any event, and can end the subscription with it")
  func didSubscribeFirst() {
    final class FirstOnly: Subscriber, @unchecked Sendable {
      // guarded by: the subscription's serial delivery (one event at a time, guarantee 1).
      var log: [String] = []
      var disposable: (any Disposable)?
      func didSubscribe(with disposable: any Disposable) {
        log.append("subscribed")
        self.disposable = disposable
      }
      func sendNext(_ value: Int) {
        log.append("\(value)")
        disposable?.dispose()
      }
      func sendError(_ error: TestError) { log.append("error") }
      func sendCompleted() { log.append("completed") }
    }
    let subscriber = FirstOnly()
    let disposable = numbers.subscribe(subscriber)
    #expect(subscriber.log == ["subscribed", "1"])
    #expect(disposable.isDisposed)
  }

  @Test("the disposable of a finished subscription reports disposed")
  func finishedIsDisposed() {
    #expect(numbers.subscribe(EventRecorder()).isDisposed)
    #expect(numbers.subscribeNext({ _ in }, error: { _ in }, completed: {}).isDisposed)
  }
}
