import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("ClosureSubscriber, one subscriber for several signals (RAC's +subscriberWithNext:error:completed:)")
struct ClosureSubscriberTests {
  @Test("one subscriber attached to two signals receives the values of both, in the order sent")
  func severalSignals() {
    let log = Locked<[String]>([])
    let subscriber = ClosureSubscriber<Int, TestError>(
      next: { log.append("\($0)") }, error: { log.append("error \($0.code)") }, completed: { log.append("completed") })
    let first = Subject<Int, TestError>()
    let second = Subject<Int, TestError>()
    first.subscribe(subscriber)
    second.subscribe(subscriber)
    first.sendNext(1)
    second.sendNext(2)
    first.sendNext(3)
    #expect(log.value == ["1", "2", "3"])
  }

  @Test("the first terminal event ends it: every other subscription is disposed and nothing more arrives")
  func terminalEndsEverything() {
    let log = Locked<[String]>([])
    let subscriber = ClosureSubscriber<Int, TestError>(
      next: { log.append("\($0)") }, error: { log.append("error \($0.code)") }, completed: { log.append("completed") })
    let first = Subject<Int, TestError>()
    let second = Subject<Int, TestError>()
    first.subscribe(subscriber)
    second.subscribe(subscriber)
    second.sendError(TestError(code: 4))
    first.sendNext(5)
    first.sendCompleted()
    #expect(log.value == ["error 4"])
    #expect(first.subscriberCount == 0)
    #expect(subscriber.isDisposed)
  }

  @Test("disposing it ends every subscription made with it; a later subscription is disposed at once")
  func disposing() {
    let received = Locked<[Int]>([])
    let subscriber = ClosureSubscriber<Int, Never>(next: { received.append($0) }, error: { _ in }, completed: {})
    let subject = Subject<Int, Never>()
    subject.subscribe(subscriber)
    subscriber.dispose()
    subject.sendNext(1)
    #expect(subject.subscriberCount == 0)
    let late = subject.subscribe(subscriber)
    #expect(late.isDisposed)
    #expect(received.value.isEmpty)
  }

  @Test("its closures are called one at a time, though its signals send from several threads (guarantee 1)")
  func serial() {
    let inCallback = Locked(0)
    let overlaps = Locked(0)
    let received = Locked(0)
    let subscriber = ClosureSubscriber<Int, Never>(
      next: { _ in
        if inCallback.increment() > 1 { overlaps.increment() }
        for _ in 0..<50 { _ = received.value }
        received.increment()
        inCallback.withLock { $0 -= 1 }
      }, error: { _ in }, completed: {})
    let subjects = (0..<4).map { _ in Subject<Int, Never>() }
    for subject in subjects { subject.subscribe(subscriber) }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for value in 0..<500 { subjects[thread].sendNext(value) }
    }
    #expect(overlaps.value == 0)
    #expect(received.value == 2_000)
  }

  @Test("its closures are released once it has terminated (guarantee 8)")
  func releases() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, TestError>()
    let subscriber: ClosureSubscriber<Int, TestError>
    do {
      let tracked = tracker.make()
      subscriber = ClosureSubscriber(next: { _ in _ = tracked }, error: { _ in _ = tracked }, completed: { _ = tracked })
    }
    subject.subscribe(subscriber)
    #expect(tracker.liveCount == 1)
    subject.sendCompleted()
    #expect(tracker.liveCount == 0)
    withExtendedLifetime(subscriber) {}
  }
}
