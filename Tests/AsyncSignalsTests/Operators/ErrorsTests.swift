import Testing

@testable import AsyncSignals

@MainActor
@Suite("Errors: catch, try, tryMap, ignoreValues, materialize, dematerialize, mapError, promoteError")
struct ErrorsTests {
  struct OtherError: Error, Equatable {
    var reason: String
  }

  // MARK: catch

  @Test("-catch: on error, switches to the signal the block returns")
  func catchSwitches() {
    let subject = Subject<Int, TestError>()
    let replacement = Subject<Int, OtherError>()
    let failures = Locked<[TestError]>([])
    let recorder = EventRecorder(
      subject.catch { error in
        failures.append(error)
        return replacement
      })
    subject.sendNext(1)
    #expect(replacement.subscriberCount == 0)
    subject.sendError(TestError(code: 7))
    #expect(failures.value == [TestError(code: 7)])
    #expect(replacement.subscriberCount == 1)
    replacement.sendNext(2)
    replacement.sendError(OtherError(reason: "again"))
    #expect(recorder.events == [.next(1), .next(2), .error(OtherError(reason: "again"))])
    #expect(replacement.subscriberCount == 0)
  }

  @Test("-catch: values and completion pass through without calling the block")
  func catchPassesCompletion() {
    let calls = Locked(0)
    let source = SyncSource<Int, TestError>([1, 2])
    let caught = source.signal.catch { _ -> Signal<Int, Never> in
      calls.increment()
      return .empty
    }
    #expect(EventRecorder(caught).events == [.next(1), .next(2), .completed])
    #expect(calls.value == 0)
  }

  @Test("-catchTo: switches to the given signal; a synchronous failure switches before subscribe returns")
  func catchTo() {
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError()))
    let recovered = failing.signal.catch(to: Signal<Int, Never>.return(0))
    #expect(EventRecorder(recovered).events == [.next(1), .next(0), .completed])
  }

  @Test("disposing -catch: disposes the source, or the replacement once it is live")
  func catchDisposal() {
    let subject = Subject<Int, TestError>()
    let replacement = Subject<Int, TestError>()
    let before = EventRecorder(subject.catch(to: replacement))
    before.dispose()
    #expect(subject.subscriberCount == 0)

    let other = Subject<Int, TestError>()
    let after = EventRecorder(other.catch(to: replacement))
    other.sendError(TestError())
    #expect(replacement.subscriberCount == 1)
    after.dispose()
    #expect(replacement.subscriberCount == 0)
    replacement.sendNext(1)
    #expect(after.events.isEmpty)
  }

  @Test("catch releases its handler when the subscription ends (guarantee 8)")
  func catchReleasesHandler() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, TestError>()
    let recorder: EventRecorder<Int, TestError> = {
      let tracked = tracker.make()
      return EventRecorder(
        subject.catch { _ in
          _ = tracked
          return .empty
        })
    }()
    #expect(tracker.liveCount == 1)
    recorder.dispose()
    #expect(tracker.liveCount == 0)
  }

  // MARK: try / tryMap

  @Test("-try: passes values while the block succeeds; fails with the block's error and disposes the source")
  func tryBlock() {
    let subject = Subject<Int, TestError>()
    let checked = subject.try { (value) throws(TestError) in
      if value < 0 { throw TestError(code: value) }
    }
    let recorder = EventRecorder(checked)
    subject.sendNext(1)
    subject.sendNext(-2)
    subject.sendNext(3)
    #expect(recorder.events == [.next(1), .error(TestError(code: -2))])
    #expect(subject.subscriberCount == 0)
  }

  @Test("-tryMap: maps values; a thrown error fails the result")
  func tryMap() {
    let source = SyncSource<String, TestError>(["1", "2", "x", "3"])
    let parsed = source.signal.tryMap { (text) throws(TestError) -> Int in
      guard let number = Int(text) else { throw TestError(code: 99) }
      return number
    }
    #expect(EventRecorder(parsed).events == [.next(1), .next(2), .error(TestError(code: 99))])
    #expect(source.disposals.value == 1)
  }

  @Test("try and tryMap pass the source's own failure and completion through")
  func tryPassesTerminalEvents() {
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 5)))
    #expect(EventRecorder(failing.signal.tryMap { $0 * 2 }).events == [.next(2), .error(TestError(code: 5))])
    let completing = SyncSource<Int, TestError>([1])
    #expect(EventRecorder(completing.signal.try { _ in }).events == [.next(1), .completed])
    // With a signal that cannot fail, the closure cannot throw either.
    #expect(EventRecorder(Signal<Int, Never>.return(1).tryMap { $0 + 1 }).values == [2])
  }

  @Test("tryMap: a handler that sends back from the error callback receives nothing more")
  func tryMapReentrant() {
    let source = LoopbackSource<Int, TestError>()
    let log = Locked<[String]>([])
    source.signal.tryMap { (value) throws(TestError) -> Int in
      if value == 0 { throw TestError() }
      return value
    }.subscribeNext(
      { log.append("\($0)") },
      error: { _ in
        log.append("error")
        source.sendNext(1)
      })
    source.sendNext(0)
    #expect(log.value == ["error"])
  }

  @Test("disposing try and tryMap disposes the source")
  func tryDisposal() {
    let subject = Subject<Int, TestError>()
    let recorders = [EventRecorder(subject.try { _ in }), EventRecorder(subject.tryMap { $0 })]
    #expect(subject.subscriberCount == 2)
    for recorder in recorders { recorder.dispose() }
    #expect(subject.subscriberCount == 0)
  }

  // MARK: ignoreValues

  @Test("-ignoreValues drops values and keeps the terminal event")
  func ignoreValues() {
    #expect(EventRecorder(SyncSource<Int, TestError>([1, 2]).signal.ignoreValues()).events == [.completed])
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 1)))
    #expect(EventRecorder(failing.signal.ignoreValues()).events == [.error(TestError(code: 1))])
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.ignoreValues())
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  // MARK: materialize / dematerialize

  @Test("-materialize turns every event into a value, then completes, even after an error")
  func materialize() {
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 2)))
    let events = EventRecorder(failing.signal.materialize())
    #expect(events.events == [.next(.next(1)), .next(.error(TestError(code: 2))), .completed])
    let completing = SyncSource<Int, TestError>([1])
    #expect(EventRecorder(completing.signal.materialize()).values == [.next(1), .completed])
  }

  @Test("-dematerialize turns event values back into events and stops at a terminal one")
  func dematerialize() {
    let subject = Subject<Event<Int, TestError>, Never>()
    let recorder = EventRecorder(subject.dematerialize())
    subject.sendNext(.next(1))
    subject.sendNext(.error(TestError(code: 3)))
    subject.sendNext(.next(2))
    #expect(recorder.events == [.next(1), .error(TestError(code: 3))])
    #expect(subject.subscriberCount == 0)
  }

  @Test("materialize followed by dematerialize gives back the original events")
  func roundTrip() {
    let failing = SyncSource<Int, TestError>([1, 2], then: .error(TestError(code: 4)))
    #expect(
      EventRecorder(failing.signal.materialize().dematerialize()).events == [
        .next(1), .next(2), .error(TestError(code: 4)),
      ])
    let completing = SyncSource<Int, TestError>([1])
    #expect(EventRecorder(completing.signal.materialize().dematerialize()).events == [.next(1), .completed])
    let outer = Subject<Event<Int, TestError>, Never>()
    let completed = EventRecorder(outer.dematerialize())
    outer.sendCompleted()
    #expect(completed.events == [.completed])
  }

  @Test("disposing materialize and dematerialize disposes the source")
  func materializeDisposal() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.materialize().dematerialize())
    #expect(subject.subscriberCount == 1)
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  // MARK: mapError / promoteError

  @Test("mapError transforms the failure; values and completion pass through")
  func mapError() {
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 8)))
    let mapped = failing.signal.mapError { OtherError(reason: "code \($0.code)") }
    #expect(EventRecorder(mapped).events == [.next(1), .error(OtherError(reason: "code 8"))])
    #expect(EventRecorder(SyncSource<Int, TestError>([1]).signal.mapError { _ in OtherError(reason: "") }).isCompleted)
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.mapError { _ in OtherError(reason: "") })
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("promoteError lets a signal that cannot fail combine with one that can")
  func promoteError() {
    let greeting = Signal<Int, Never>.return(0).promoteError(to: TestError.self)
    let combined = greeting.concat(SyncSource<Int, TestError>([1], then: .error(TestError(code: 1))).signal)
    #expect(EventRecorder(combined).events == [.next(0), .next(1), .error(TestError(code: 1))])
    let inferred: Signal<Int, OtherError> = Signal<Int, Never>.return(2).promoteError()
    #expect(EventRecorder(inferred).events == [.next(2), .completed])
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.promoteError(to: TestError.self))
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("try, tryMap and mapError release their closures when the subscription ends (guarantee 8)")
  func closuresReleased() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, TestError>()
    let recorder: EventRecorder<Int, OtherError> = {
      let tracked = tracker.make()
      return EventRecorder(
        subject.try { _ in _ = tracked }.tryMap {
          _ = tracked
          return $0
        }
        .mapError { _ in
          _ = tracked
          return OtherError(reason: "")
        })
    }()
    #expect(tracker.liveCount == 1)
    subject.sendCompleted()
    #expect(recorder.isCompleted)
    #expect(tracker.liveCount == 0)
  }
}
