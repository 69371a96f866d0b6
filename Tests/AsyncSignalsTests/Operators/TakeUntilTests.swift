import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("take(until:) a signal, take(untilReplacement:)")
struct TakeUntilTests {
  @Test("forwards until the trigger sends a value, then completes and disposes both (RAC's -takeUntil:)")
  func triggerValue() {
    let source = Subject<Int, TestError>()
    let trigger = Subject<String, TestError>()
    let recorder = EventRecorder(source.take(until: trigger))
    source.sendNext(1)
    source.sendNext(2)
    trigger.sendNext("stop")
    source.sendNext(3)
    #expect(recorder.events == [.next(1), .next(2), .completed])
    #expect(source.subscriberCount == 0 && trigger.subscriberCount == 0)
  }

  @Test("the trigger's completion also completes the result (RAC's rule)")
  func triggerCompletion() {
    let source = Subject<Int, TestError>()
    let trigger = Subject<Int, TestError>()
    let recorder = EventRecorder(source.take(until: trigger))
    source.sendNext(1)
    trigger.sendCompleted()
    #expect(recorder.events == [.next(1), .completed])
    #expect(source.subscriberCount == 0)
  }

  @Test("the trigger is subscribed to first; if it fires at once, the source is never subscribed to")
  func triggerFirst() {
    let log = Locked<[String]>([])
    let source = Signal<Int, TestError>.create { _ in
      log.append("source")
      return nil
    }
    let trigger = Signal<Int, TestError>.create { _ in
      log.append("trigger")
      return nil
    }
    _ = EventRecorder(source.take(until: trigger))
    #expect(log.value == ["trigger", "source"])

    let untouched = Subject<Int, TestError>()
    let recorder = EventRecorder(untouched.take(until: Signal<Int, TestError>.return(0)))
    #expect(recorder.events == [.completed])
    #expect(untouched.subscriberCount == 0)
  }

  @Test("the source's completion and failure end the result and dispose the trigger")
  func sourceTermination() {
    let source = Subject<Int, TestError>()
    let trigger = Subject<Int, TestError>()
    let recorder = EventRecorder(source.take(until: trigger))
    source.sendCompleted()
    #expect(recorder.events == [.completed])
    #expect(trigger.subscriberCount == 0)

    let sourceTwo = Subject<Int, TestError>()
    let triggerTwo = Subject<Int, TestError>()
    let second = EventRecorder(sourceTwo.take(until: triggerTwo))
    sourceTwo.sendError(TestError(code: 1))
    #expect(second.events == [.error(TestError(code: 1))])
    #expect(triggerTwo.subscriberCount == 0)
  }

  @Test("the trigger's failure fails the result (RAC drops it; typed failures are never dropped)")
  func triggerFailure() {
    let source = Subject<Int, TestError>()
    let trigger = Subject<Int, TestError>()
    let recorder = EventRecorder(source.take(until: trigger))
    trigger.sendError(TestError(code: 6))
    #expect(recorder.events == [.error(TestError(code: 6))])
    #expect(source.subscriberCount == 0)
  }

  @Test("disposing the result disposes both and releases the callbacks (guarantee 8)")
  func disposal() {
    let tracker = LifetimeTracker()
    let source = Subject<Int, Never>()
    let trigger = Subject<Int, Never>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      return source.take(until: trigger).subscribeNext { _ in _ = captured }
    }()
    disposable.dispose()
    #expect(tracker.liveCount == 0)
    #expect(source.subscriberCount == 0 && trigger.subscriberCount == 0)
  }

  @Test("a downstream that stops early disposes both")
  func downstreamStop() {
    let source = Subject<Int, Never>()
    let trigger = Subject<Int, Never>()
    let recorder = EventRecorder(source.take(until: trigger).firstValues(1))
    source.sendNext(1)
    #expect(recorder.events == [.next(1), .completed])
    #expect(source.subscriberCount == 0 && trigger.subscriberCount == 0)
  }

  @Test("a callback that fires the trigger from inside a value: events keep the order they arrive in")
  func reentrantTrigger() {
    // A `create` subscriber delivers a send from its own callback at once (nested), so the operator sees 2
    // before the trigger. (A subject queues such a send behind the value in progress; see SubjectOrderTests.)
    let sourceSubscriber = Locked<(any Subscriber<Int, Never>)?>(nil)
    let source = Signal<Int, Never>.create { subscriber in
      sourceSubscriber.value = subscriber
      return nil
    }
    let trigger = Subject<Int, Never>()
    let log = Locked<[String]>([])
    source.take(until: trigger).subscribeNext(
      { value in
        log.append("\(value)")
        guard value == 1 else { return }
        sourceSubscriber.value?.sendNext(2)  // arrives before the trigger fires: forwarded, after this callback
        trigger.sendNext(0)
        sourceSubscriber.value?.sendNext(3)  // arrives after: dropped
      }, completed: { log.append("completed") })
    sourceSubscriber.value?.sendNext(1)
    #expect(log.value == ["1", "2", "completed"])
    #expect(trigger.subscriberCount == 0)
  }

  @Test("two threads, one sending values and one firing the trigger: a prefix in order, then one completion")
  nonisolated func twoThreads() async {
    let source = Subject<Int, Never>()
    let trigger = Subject<Int, Never>()
    let recorder = EventRecorder(source.take(until: trigger))
    let probe = OverlapProbe()
    let probed = EventRecorder(
      source.take(until: trigger).map { value -> Int in
        probe.enter()
        defer { probe.leave() }
        return value
      })
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      if side == 0 {
        for value in 0..<10_000 { source.sendNext(value) }
      } else {
        for _ in 0..<100 { trigger.sendNext(0) }
      }
    }
    #expect(recorder.values == Array(0..<recorder.values.count))
    #expect(recorder.events.filter(\.isTerminating).count == 1)
    #expect(recorder.isCompleted && probed.isCompleted)
    #expect(probe.overlaps == 0)
  }

  // MARK: take(untilReplacement:)

  @Test("forwards the source until the replacement sends, then only the replacement (RAC's -takeUntilReplacement:)")
  func replacement() {
    let source = Subject<Int, TestError>()
    let replacement = Subject<Int, TestError>()
    let recorder = EventRecorder(source.take(untilReplacement: replacement))
    source.sendNext(1)
    replacement.sendNext(10)
    #expect(source.subscriberCount == 0)
    source.sendNext(2)
    replacement.sendNext(11)
    replacement.sendCompleted()
    #expect(recorder.events == [.next(1), .next(10), .next(11), .completed])
  }

  @Test("the source's completion is swallowed: only the replacement ends the result (RAC's concat:never)")
  func sourceCompletionSwallowed() {
    let source = Subject<Int, TestError>()
    let replacement = Subject<Int, TestError>()
    let recorder = EventRecorder(source.take(untilReplacement: replacement))
    source.sendNext(1)
    source.sendCompleted()
    #expect(!recorder.isTerminated)
    replacement.sendCompleted()
    #expect(recorder.events == [.next(1), .completed])
  }

  @Test("the source's failure before the replacement fails the result; the replacement's failure does too")
  func replacementFailures() {
    let source = Subject<Int, TestError>()
    let replacement = Subject<Int, TestError>()
    let recorder = EventRecorder(source.take(untilReplacement: replacement))
    source.sendError(TestError(code: 1))
    #expect(recorder.events == [.error(TestError(code: 1))])
    #expect(replacement.subscriberCount == 0)

    let sourceTwo = Subject<Int, TestError>()
    let replacementTwo = Subject<Int, TestError>()
    let second = EventRecorder(sourceTwo.take(untilReplacement: replacementTwo))
    replacementTwo.sendError(TestError(code: 2))
    #expect(second.events == [.error(TestError(code: 2))])
    #expect(sourceTwo.subscriberCount == 0)
  }

  @Test("the replacement is subscribed to first; a replacement that sends at once replaces the source entirely")
  func replacementFirst() {
    let untouched = Subject<Int, TestError>()
    let recorder = EventRecorder(untouched.take(untilReplacement: .values([7])))
    #expect(recorder.events == [.next(7), .completed])
    #expect(untouched.subscriberCount == 0)
  }

  @Test("a replacement that sends a value at once, and goes on, means the source's body never runs (RAC's rule)")
  func replacementSendsAtOnceWithoutEnding() {
    let bodyRuns = Locked(0)
    let source = Signal<Int, TestError>.create { subscriber in
      bodyRuns.increment()
      subscriber.sendNext(1)
      return nil
    }
    let replacement = Subject<Int, TestError>()
    let recorder = EventRecorder(source.take(untilReplacement: replacement.startWith(7)))
    replacement.sendNext(8)
    #expect(recorder.values == [7, 8])
    #expect(bodyRuns.value == 0)
    recorder.dispose()
    #expect(replacement.subscriberCount == 0)
  }

  @Test("disposing take(untilReplacement:) disposes both")
  func replacementDisposal() {
    let source = Subject<Int, Never>()
    let replacement = Subject<Int, Never>()
    let recorder = EventRecorder(source.take(untilReplacement: replacement))
    recorder.dispose()
    #expect(source.subscriberCount == 0 && replacement.subscriberCount == 0)
  }
}
