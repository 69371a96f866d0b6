import Testing

@testable import AsyncSignals

@MainActor
@Suite("BehaviorSubject")
struct BehaviorSubjectTests {
  @Test("sends its initial value to a subscriber before anything is sent")
  func initialValue() {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    #expect(EventRecorder(subject).values == [0])
  }

  @Test("sends the current value to late subscribers, then live values")
  func currentValueToLateSubscribers() {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    let early = EventRecorder(subject)
    subject.sendNext(1)
    subject.sendNext(2)
    let late = EventRecorder(subject)
    subject.sendNext(3)
    #expect(early.values == [0, 1, 2, 3])
    #expect(late.values == [2, 3])
    #expect(subject.value == 3)
  }

  @Test("after completing it sends the last value and the completion to late subscribers")
  func afterCompletion() {
    let subject = BehaviorSubject<Int, TestError>(value: 0)
    subject.sendNext(1)
    subject.sendCompleted()
    subject.sendNext(2)
    #expect(EventRecorder(subject).events == [.next(1), .completed])
    #expect(subject.value == 1)
  }

  @Test("a subscriber that sends from its callback: every subscriber sees the values in order")
  func reentrantSend() {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    let first = Locked<[Int]>([])
    let second = Locked<[Int]>([])
    subject.subscribeNext { value in
      first.append(value)
      if value == 1 { subject.sendNext(2) }
    }
    subject.subscribeNext { second.append($0) }
    subject.sendNext(1)
    #expect(first.value == [0, 1, 2])
    #expect(second.value == [0, 1, 2])
  }

  @Test("a subscriber that subscribes from its callback receives the value in progress once, then live values")
  func reentrantSubscribe() {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    let inner = Locked<[Int]>([])
    subject.subscribeNext { value in
      if value == 1 { subject.subscribeNext { inner.append($0) } }
    }
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(inner.value == [1, 2])
  }
}
