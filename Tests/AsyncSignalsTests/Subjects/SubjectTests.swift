import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("Subject")
struct SubjectTests {
  @Test("forwards sends to current subscribers in subscription order, with no replay")
  func forwards() {
    let subject = Subject<Int, TestError>()
    let log = Locked<[String]>([])
    subject.sendNext(0)
    subject.subscribeNext({ log.append("a\($0)") }, error: { _ in })
    subject.subscribeNext({ log.append("b\($0)") }, error: { _ in })
    subject.sendNext(1)
    #expect(log.value == ["a1", "b1"])
  }

  @Test("terminates once: subscribers get the terminal event, later ones get it at once, later sends are ignored")
  func terminates() {
    let subject = Subject<Int, TestError>()
    let early = EventRecorder(subject)
    subject.sendCompleted()
    subject.sendNext(1)
    subject.sendError(TestError())
    let late = EventRecorder(subject)
    #expect(early.events == [.completed])
    #expect(late.events == [.completed])
    #expect(subject.subscriberCount == 0)
  }

  @Test("as a subscriber it forwards a signal, and disposes that subscription when it terminates")
  func asSubscriber() {
    let subject = Subject<Int, Never>()
    let upstreamDisposed = Locked(false)
    let upstream = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(1)
      return ActionDisposable { upstreamDisposed.value = true }
    }
    let recorder = EventRecorder(subject)
    upstream.subscribe(subject)
    #expect(recorder.values == [1])
    subject.sendCompleted()
    #expect(upstreamDisposed.value)
  }

  @Test("disposing a subscription removes that subscriber only")
  func disposal() {
    let subject = Subject<Int, Never>()
    let first = EventRecorder(subject)
    let second = EventRecorder(subject)
    first.dispose()
    subject.sendNext(1)
    #expect(first.values.isEmpty && second.values == [1])
    #expect(subject.subscriberCount == 1)
  }

  @Test("100 000 subscribers attach and detach in linear time")
  func manySubscribers() {
    let subject = Subject<Int, Never>()
    let disposables = (0..<100_000).map { _ in subject.subscribeNext { _ in } }
    #expect(subject.subscriberCount == 100_000)
    for disposable in disposables { disposable.dispose() }
    #expect(subject.subscriberCount == 0)
  }

  @Test("a subscriber may send, subscribe and dispose from its callback")
  func reentrancy() {
    let subject = Subject<Int, Never>()
    let log = Locked<[String]>([])
    let own = Locked<(any Disposable)?>(nil)
    own.value = subject.subscribeNext { value in
      log.append("first \(value)")
      if value == 1 {
        subject.subscribeNext { log.append("late \($0)") }
        subject.sendNext(2)
        own.value?.dispose()
      }
    }
    subject.sendNext(1)
    subject.sendNext(3)
    // 2 is queued behind 1 (guarantee 6) and the first subscriber disposed itself before 2 was delivered, so only
    // the late one receives it (guarantee 2).
    #expect(log.value == ["first 1", "late 2", "late 3"])
  }

  @Test("concurrent sends from 8 threads reach every subscriber one at a time")
  func concurrentSends() {
    let subject = Subject<Int, Never>()
    let counts = (0..<3).map { _ in Locked(0) }
    let overlaps = Locked(0)
    for count in counts {
      let busy = Locked(false)
      subject.subscribeNext { _ in
        if busy.withLock({ let was = $0; $0 = true; return was }) { overlaps.increment() }
        count.increment()
        busy.value = false
      }
    }
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for value in 0..<1_000 { subject.sendNext(value) }
    }
    #expect(counts.map(\.value) == [8_000, 8_000, 8_000])
    #expect(overlaps.value == 0)
  }
}

@MainActor
@Suite("The subject family")
struct SubjectFamilyTests {
  @Test("replay subjects, behaviour subjects and grouped signals are subjects, as in RAC")
  func hierarchy() {
    let replay: Subject<Int, Never> = ReplaySubject<Int, Never>()
    let behavior: ReplaySubject<Int, Never> = BehaviorSubject(value: 0)
    let group: Subject<Int, Never> = GroupedSignal<String, Int, Never>(key: "a")
    replay.sendNext(1)
    #expect(EventRecorder(replay).values == [1])
    #expect(EventRecorder(behavior).values == [0])
    #expect(EventRecorder(group).values.isEmpty)
  }

  @Test("ReplaySubject() replays everything (it does not inherit Subject() and its empty replay)")
  func defaultReplayIsUnlimited() {
    let subject = ReplaySubject<Int, Never>()
    for value in 0..<100 { subject.sendNext(value) }
    #expect(EventRecorder(subject).values == Array(0..<100))
  }
}
