import Testing

@testable import AsyncSignals

/// Guarantee 6 for subjects with several subscribers: a send from inside a callback is delivered after the event in
/// progress, to every subscriber — never ahead of it to the subscribers that have not yet received that event.
@MainActor
@Suite("Subject re-entrant ordering")
struct SubjectOrderTests {
  @Test("a value sent from the first subscriber's callback reaches the second subscriber after the value in progress")
  func reentrantSendKeepsOrderForLaterSubscribers() {
    let subject = Subject<Int, Never>()
    let first = Locked<[Int]>([])
    let second = Locked<[Int]>([])
    subject.subscribeNext { value in
      first.append(value)
      if value == 1 { subject.sendNext(2) }
    }
    subject.subscribeNext { second.append($0) }
    subject.sendNext(1)
    #expect(first.value == [1, 2])
    #expect(second.value == [1, 2])
  }

  @Test("a completion sent from the first subscriber's callback reaches the second subscriber after the value")
  func reentrantCompletionKeepsOrder() {
    let subject = Subject<Int, Never>()
    let first = EventRecorder<Int, Never>()
    let second = EventRecorder<Int, Never>()
    subject.subscribeNext { value in
      first.sendNext(value)
      subject.sendCompleted()
    }
    subject.subscribe(second)
    subject.sendNext(1)
    #expect(second.events == [.next(1), .completed])
  }
}
