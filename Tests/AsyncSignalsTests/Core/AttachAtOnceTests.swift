import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// Guarantee 5's second half: below the root signal, what attaches at once and what follows the subscription
/// scheduler. Each test subscribes on a plain thread (no current scheduler, not a task) while the background
/// scheduler is held, so "attached at once" and "attached later" cannot race: what has not happened by the time
/// the checks run would only happen once the hold is released.
@Suite("Attaching below the root signal, from a plain thread")
struct AttachAtOnceTests {
  @Test("startWith attaches to its source and sends its first value before subscribe returns")
  func startWith() {
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let duringCheck = Locked<[Int]>([])
    onPlainThread {
      BackgroundHold.during {
        let subscription = subject.startWith(0).subscribeNext { received.append($0) }
        subject.sendNext(1)  // right after subscribe returns: must not be lost
        duringCheck.value = received.value
        subscription.dispose()
      }
    }
    #expect(duringCheck.value == [0, 1])
  }

  @Test("startWith's first value still comes first, and a stop after it never subscribes the source")
  func startWithStops() {
    let subscriptions = Locked(0)
    let source = Signal<Int, Never>.create { subscriber in
      subscriptions.increment()
      subscriber.sendNext(1)
      return nil
    }
    let received = Locked<[Int]>([])
    onPlainThread {
      BackgroundHold.during {
        _ = source.startWith(0).take(1).subscribeNext { received.append($0) }
      }
    }
    #expect(received.value == [0])
    #expect(subscriptions.value == 0)
  }

  @Test("initially runs its action and attaches to its source before subscribe returns")
  func initially() {
    let subject = Subject<Int, Never>()
    let log = Locked<[String]>([])
    let duringCheck = Locked<[String]>([])
    onPlainThread {
      BackgroundHold.during {
        let subscription = subject.initially { log.append("initially") }.subscribeNext { log.append("\($0)") }
        subject.sendNext(1)
        duringCheck.value = log.value
        subscription.dispose()
      }
    }
    #expect(duringCheck.value == ["initially", "1"])
  }

  @Test("autoconnect attaches to the subject and connects before subscribe returns")
  func autoconnect() {
    let subject = Subject<Int, Never>()
    let shared = subject.publish().autoconnect()
    let first = Locked<[Int]>([])
    let second = Locked<[Int]>([])
    let duringCheck = Locked<([Int], [Int])>(([], []))
    onPlainThread {
      BackgroundHold.during {
        let a = shared.subscribeNext { first.append($0) }
        subject.sendNext(1)
        let b = shared.subscribeNext { second.append($0) }
        subject.sendNext(2)
        duringCheck.value = (first.value, second.value)
        a.dispose()
        b.dispose()
      }
    }
    #expect(duringCheck.value.0 == [1, 2])
    #expect(duringCheck.value.1 == [2])
  }

  @Test("a replay subject replays and attaches before subscribe returns: no value is trimmed away meanwhile")
  func replaySubject() {
    let subject = ReplaySubject<Int, Never>(capacity: 1)
    subject.sendNext(0)
    let received = Locked<[Int]>([])
    let duringCheck = Locked<[Int]>([])
    onPlainThread {
      BackgroundHold.during {
        let subscription = subject.subscribeNext { received.append($0) }
        subject.sendNext(1)
        subject.sendNext(2)
        duringCheck.value = received.value
        subscription.dispose()
      }
    }
    #expect(duringCheck.value == [0, 1, 2])
  }

  @Test("a behaviour subject sends its current value and attaches before subscribe returns")
  func behaviorSubject() {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    let received = Locked<[Int]>([])
    let duringCheck = Locked<[Int]>([])
    onPlainThread {
      BackgroundHold.during {
        let subscription = subject.subscribeNext { received.append($0) }
        subject.sendNext(1)
        duringCheck.value = received.value
        subscription.dispose()
      }
    }
    #expect(duringCheck.value == [0, 1])
  }

  @Test("an observable value sends its current value and attaches before subscribe returns")
  func observableValue() {
    let volume = ObservableValue(5)
    let received = Locked<[Int]>([])
    let duringCheck = Locked<[Int]>([])
    onPlainThread {
      BackgroundHold.during {
        let subscription = volume.signal.subscribeNext { received.append($0) }
        volume.value = 7
        duringCheck.value = received.value
        subscription.dispose()
      }
    }
    #expect(duringCheck.value == [5, 7])
  }

  @Test("a create body is a subscribe body: from a plain thread it runs later, on the background scheduler")
  func createFollowsTheRule() {
    let ranAtOnce = Locked<Bool?>(nil)
    let ranOn = Locked<(any Scheduler)?>(nil)
    let done = DispatchSemaphore(value: 0)
    let ran = Locked(false)
    onPlainThread {
      BackgroundHold.during {
        Signal<Int, Never>.create { subscriber in
          ran.value = true
          ranOn.value = Schedulers.current
          subscriber.sendCompleted()
          return nil
        }.subscribeCompleted { done.signal() }
        ranAtOnce.value = ran.value
      }
    }
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(ranAtOnce.value == false)
    #expect(ranOn.value === QueueScheduler.background)
  }

  @Test("return, empty and error deliver as a create body does: from a plain thread, later, on the background scheduler")
  func returnFollowsTheRule() {
    let log = Locked<[String]>([])
    let atOnce = Locked<[String]>(["unset"])
    let done = DispatchSemaphore(value: 0)
    onPlainThread {
      BackgroundHold.during {
        Signal<Int, TestError>.return(1).subscribeNext({ log.append("\($0)") }, error: { _ in }, completed: {
          log.append("return completed")
          done.signal()
        })
        Signal<Int, TestError>.empty.subscribeError({ _ in }, completed: {
          log.append("empty completed")
          done.signal()
        })
        Signal<Int, TestError>.error(TestError(code: 1)).subscribeError { _ in
          log.append("error")
          done.signal()
        }
        atOnce.value = log.value
      }
    }
    for _ in 0..<3 { #expect(done.wait(timeout: .now() + 10) == .success) }
    #expect(atOnce.value.isEmpty)
    #expect(Set(log.value) == ["1", "return completed", "empty completed", "error"])
  }

  @Test("defer's closure is a subscribe body: from a plain thread it runs later, on the background scheduler")
  func deferFollowsTheRule() {
    let ranAtOnce = Locked<Bool?>(nil)
    let ranOn = Locked<(any Scheduler)?>(nil)
    let done = DispatchSemaphore(value: 0)
    let made = Locked(false)
    onPlainThread {
      BackgroundHold.during {
        Signal<Int, Never>.defer {
          made.value = true
          ranOn.value = Schedulers.current
          return .empty
        }.subscribeCompleted { done.signal() }
        ranAtOnce.value = made.value
      }
    }
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(ranAtOnce.value == false)
    #expect(ranOn.value === QueueScheduler.background)
  }
}
