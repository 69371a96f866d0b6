import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("Signal creation")
struct SignalCreationTests {
  @Test("return sends its value and completes")
  func returnSignal() {
    #expect(EventRecorder(Signal<Int, TestError>.return(7)).events == [.next(7), .completed])
  }

  @Test(
    "subscribeNext on return, in a task: the value, then the completion, before subscribe returns, with the subscription scheduler current, and nothing left to dispose"
  )
  nonisolated func returnAtOnceInATask() async {
    let log = Locked<[String]>([])
    let subscription = Signal<Int, TestError>.return(1).subscribeNext(
      { log.append("\($0) on \(Schedulers.current === SubscriptionScheduler.shared)") }, error: { _ in },
      completed: { log.append("completed on \(Schedulers.current === SubscriptionScheduler.shared)") })
    let values = Locked<[String]>([])
    let valuesOnly = Signal<Int, Never>.return(2).subscribeNext {
      values.append("\($0) on \(Schedulers.current === SubscriptionScheduler.shared)")
    }
    #expect(log.value == ["1 on true", "completed on true"])
    #expect(values.value == ["2 on true"])
    #expect(subscription.isDisposed && valuesOnly.isDisposed)
  }

  @Test("subscribeNext on return inside a scheduler's block: at once, with that scheduler current")
  func returnAtOnceOnAScheduler() {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule {
      Signal<Int, Never>.return(3).subscribeNext { log.append("\($0) on \(Schedulers.current === scheduler)") }
      log.append("returned")
    }
    scheduler.advance()
    #expect(log.value == ["3 on true", "returned"])
  }

  @Test("empty completes at once")
  func empty() {
    #expect(EventRecorder(Signal<Int, TestError>.empty).events == [.completed])
  }

  @Test("error fails at once with its typed failure")
  func error() {
    #expect(EventRecorder(Signal<Int, TestError>.error(TestError(code: 4))).events == [.error(TestError(code: 4))])
  }

  @Test("never sends nothing and holds nothing")
  func never() {
    let tracker = LifetimeTracker()
    let recorder = EventRecorder<Tracked, TestError>()
    do {
      let tracked = tracker.make()
      Signal<Int, TestError>.never.map { _ in tracked }.subscribe(recorder)
    }
    #expect(recorder.events.isEmpty)
    #expect(tracker.liveCount == 0)
  }

  @Test("defer makes a new signal for each subscription")
  func deferred() {
    let made = Locked(0)
    let signal = Signal<Int, Never>.defer { .return(made.increment()) }
    #expect(made.value == 0)
    #expect(EventRecorder(signal).values == [1])
    #expect(EventRecorder(signal).values == [2])
  }

  @Test("a subscribe body's subscriber ignores everything after the terminal event (guarantee 2)")
  func afterTerminal() {
    let signal = Signal<Int, TestError>.create { subscriber in
      subscriber.sendNext(1)
      subscriber.sendError(TestError(code: 1))
      subscriber.sendNext(2)
      subscriber.sendCompleted()
      subscriber.sendError(TestError(code: 2))
      return nil
    }
    #expect(EventRecorder(signal).events == [.next(1), .error(TestError(code: 1))])
  }

  @Test("subscribing another signal with the body's subscriber ties both subscriptions together")
  func forwardingSubscriber() {
    let innerDisposed = Locked(false)
    let inner = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(1)
      return ActionDisposable { innerDisposed.value = true }
    }
    let outer = Signal<Int, Never>.create { subscriber in
      inner.subscribe(subscriber)
      return nil
    }
    let recorder = EventRecorder(outer)
    #expect(recorder.values == [1])
    #expect(!innerDisposed.value)
    recorder.dispose()
    #expect(innerDisposed.value)
  }

  @Test("a named signal keeps its name and its behaviour")
  func named() {
    let signal = Signal<Int, Never>.return(1).named("answers")
    #expect(signal.name == "answers")
    #expect(signal.description == "answers")
    #expect(Signal<Int, Never>.empty.description == "Signal<Int, Never>")
    #expect(EventRecorder(signal).values == [1])
  }
}
