import Testing

@testable import AsyncSignals

@MainActor
@Suite("concat")
struct ConcatTests {
  @Test("the second signal is subscribed only when the first completes")
  func subscribesLazily() {
    let first = Subject<Int, TestError>()
    let second = Subject<Int, TestError>()
    let recorder = EventRecorder(first.concat(second))
    #expect(second.subscriberCount == 0)
    first.sendNext(1)
    first.sendCompleted()
    #expect(second.subscriberCount == 1)
    second.sendNext(2)
    second.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("a failure of the first signal ends the result without subscribing the second")
  func failureEnds() {
    let first = Subject<Int, TestError>()
    let second = Subject<Int, TestError>()
    let recorder = EventRecorder(first.concat(second))
    first.sendError(TestError(code: 1))
    #expect(recorder.events == [.error(TestError(code: 1))])
    #expect(second.subscriberCount == 0)
  }

  @Test("disposing the result disposes whichever subscription is live")
  func disposal() {
    let first = Subject<Int, Never>()
    let second = Subject<Int, Never>()
    let recorder = EventRecorder(first.concat(second))
    first.sendCompleted()
    #expect(second.subscriberCount == 1)
    recorder.dispose()
    #expect(second.subscriberCount == 0)
    second.sendNext(1)
    #expect(recorder.events.isEmpty)
  }
}
