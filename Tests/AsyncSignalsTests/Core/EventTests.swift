import Testing

@testable import AsyncSignals

@Suite("Event")
struct EventTests {
  @Test("the helpers tell the kind of event and its payload")
  func helpers() {
    let next = Event<Int, TestError>.next(1)
    let failure = Event<Int, TestError>.error(TestError(code: 2))
    let completed = Event<Int, TestError>.completed
    #expect(!next.isTerminating && failure.isTerminating && completed.isTerminating)
    #expect(completed.isCompleted && !failure.isCompleted)
    #expect(next.value == 1 && failure.value == nil)
    #expect(failure.failure == TestError(code: 2) && next.failure == nil)
  }

  @Test("events with equatable payloads compare by kind and payload")
  func equality() {
    #expect(Event<Int, TestError>.next(1) == .next(1))
    #expect(Event<Int, TestError>.next(1) != .next(2))
    #expect(Event<Int, TestError>.error(TestError()) != .completed)
    #expect(Set<Event<Int, Never>>([.next(1), .next(1), .completed]).count == 2)
  }

  @Test("map and mapError transform one payload and carry the rest over")
  func transforms() {
    #expect(Event<Int, TestError>.next(2).map { $0 * 10 } == .next(20))
    #expect(Event<Int, TestError>.completed.map { $0 * 10 } == .completed)
    #expect(Event<Int, TestError>.error(TestError(code: 1)).mapError { TestError(code: $0.code + 1) } == .error(TestError(code: 2)))
  }

  @Test("the description names the event")
  func description() {
    #expect(Event<Int, TestError>.next(1).description == "next(1)")
    #expect(Event<Int, TestError>.completed.description == "completed")
    #expect(Event<Int, TestError>.error(TestError(code: 3)).description == "error(TestError(3))")
  }
}
