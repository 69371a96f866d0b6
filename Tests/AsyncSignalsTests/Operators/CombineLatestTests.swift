import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("combineLatest: pairwise, 2…N heterogeneous signals, a collection; and/or")
struct CombineLatestTests {
  private func describe<T>(_ recorder: EventRecorder<T, TestError>) -> [String] {
    recorder.events.map { event in
      switch event {
      case .next(let value): return "\(value)"
      case .error(let error): return "\(error)"
      case .completed: return "completed"
      }
    }
  }

  @Test("sends nothing until both sides have sent, then the latest pair on every value (RAC's -combineLatestWith:)")
  func latestPairs() {
    let numbers = Subject<Int, TestError>()
    let letters = Subject<String, TestError>()
    let recorder = EventRecorder(numbers.combineLatest(with: letters))
    numbers.sendNext(1)
    numbers.sendNext(2)
    #expect(recorder.events.isEmpty)
    letters.sendNext("a")
    numbers.sendNext(3)
    letters.sendNext("b")
    #expect(describe(recorder) == [#"(2, "a")"#, #"(3, "a")"#, #"(3, "b")"#])
  }

  @Test("completes only when both sides have completed (RAC's rule)")
  func completesWhenBothComplete() {
    let numbers = Subject<Int, TestError>()
    let letters = Subject<String, TestError>()
    let recorder = EventRecorder(numbers.combineLatest(with: letters))
    numbers.sendNext(1)
    letters.sendNext("a")
    numbers.sendCompleted()
    letters.sendNext("b")  // the latest number is still used
    #expect(!recorder.isTerminated)
    letters.sendCompleted()
    #expect(describe(recorder) == [#"(1, "a")"#, #"(1, "b")"#, "completed"])
  }

  @Test("a side that completes without a value leaves the result silent until the other completes (RAC, not Rx)")
  func emptySideWaits() {
    let numbers = Subject<Int, TestError>()
    let letters = Subject<String, TestError>()
    let recorder = EventRecorder(numbers.combineLatest(with: letters))
    numbers.sendCompleted()
    letters.sendNext("a")
    #expect(recorder.events.isEmpty)
    #expect(letters.subscriberCount == 1)
    letters.sendCompleted()
    #expect(describe(recorder) == ["completed"])
  }

  @Test("a failure of either side fails the result and disposes the other")
  func failure() {
    let numbers = Subject<Int, TestError>()
    let letters = Subject<String, TestError>()
    let recorder = EventRecorder(numbers.combineLatest(with: letters))
    numbers.sendNext(1)
    letters.sendError(TestError(code: 2))
    numbers.sendNext(2)
    #expect(describe(recorder) == ["TestError(2)"])
    #expect(numbers.subscriberCount == 0)
  }

  @Test("disposing the result disposes both sides and releases the latest values and the callbacks (guarantee 8)")
  func disposal() {
    let tracker = LifetimeTracker()
    let objects = Subject<Tracked, Never>()
    let numbers = Subject<Int, Never>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      let disposable = objects.combineLatest(with: numbers).subscribeNext { _ in _ = captured }
      objects.sendNext(tracker.make())
      return disposable
    }()
    #expect(tracker.liveCount == 2)
    disposable.dispose()
    #expect(tracker.liveCount == 0)
    #expect(objects.subscriberCount == 0 && numbers.subscriberCount == 0)
  }

  @Test("a failed combineLatest releases its latest values and callbacks though its disposable is kept (guarantee 8)")
  func terminalReleases() {
    let tracker = LifetimeTracker()
    let objects = Subject<Tracked, TestError>()
    let numbers = Subject<Int, TestError>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      let disposable = objects.combineLatest(with: numbers).subscribeNext({ _ in _ = captured }, error: { _ in })
      objects.sendNext(tracker.make())
      return disposable
    }()
    numbers.sendError(TestError(code: 1))
    #expect(tracker.liveCount == 0)
    #expect(objects.subscriberCount == 0)
    withExtendedLifetime(disposable) {}
  }

  @Test("a downstream that stops early disposes both sides")
  func downstreamStop() {
    let numbers = Subject<Int, Never>()
    let others = Subject<Int, Never>()
    let recorder = EventRecorder(numbers.combineLatest(with: others).firstValues(2).map { $0 + $1 })
    numbers.sendNext(1)
    others.sendNext(10)
    numbers.sendNext(2)
    #expect(recorder.events == [.next(11), .next(12), .completed])
    #expect(numbers.subscriberCount == 0 && others.subscriberCount == 0)
  }

  @Test("Signal.combineLatest of three signals of different types sends flat tuples (RAC's +combineLatest:)")
  func threeWay() {
    let name = Subject<String, TestError>()
    let age = Subject<Int, TestError>()
    let member = Subject<Bool, TestError>()
    let recorder = EventRecorder(Signal.combineLatest(name, age, member))
    name.sendNext("Ada")
    age.sendNext(36)
    member.sendNext(true)
    age.sendNext(37)
    #expect(describe(recorder) == [#"("Ada", 36, true)"#, #"("Ada", 37, true)"#])
    name.sendCompleted()
    age.sendCompleted()
    #expect(!recorder.isTerminated)
    member.sendCompleted()
    #expect(recorder.isCompleted)
  }

  @Test("+combineLatest:reduce: is a map on the tuple, at any arity")
  func reduceIsMap() {
    let a = Subject<Int, Never>()
    let b = Subject<Int, Never>()
    let c = Subject<Int, Never>()
    let d = Subject<Int, Never>()
    let recorder = EventRecorder(Signal.combineLatest(a, b, c, d).map { $0 + $1 + $2 + $3 })
    a.sendNext(1)
    b.sendNext(2)
    c.sendNext(3)
    d.sendNext(4)
    a.sendNext(11)
    #expect(recorder.values == [10, 20])
  }

  @Test("combineLatest of a collection sends arrays in collection order")
  func collection() {
    let signals = [Subject<Int, TestError>(), Subject<Int, TestError>(), Subject<Int, TestError>()]
    let recorder = EventRecorder(Signal.combineLatest(signals))
    signals[2].sendNext(3)
    signals[0].sendNext(1)
    signals[1].sendNext(2)
    signals[0].sendNext(10)
    for signal in signals { signal.sendCompleted() }
    #expect(recorder.events == [.next([1, 2, 3]), .next([10, 2, 3]), .completed])
  }

  @Test("combineLatest of an empty collection completes at once (RAC's +combineLatest: of nothing)")
  func emptyCollection() {
    #expect(EventRecorder(Signal<Int, TestError>.combineLatest([])).events == [.completed])
  }

  @Test("a failure of a collection input disposes the others")
  func collectionFailure() {
    let signals = [Subject<Int, TestError>(), Subject<Int, TestError>(), Subject<Int, TestError>()]
    let recorder = EventRecorder(Signal.combineLatest(signals))
    signals[1].sendError(TestError(code: 9))
    #expect(recorder.events == [.error(TestError(code: 9))])
    #expect(signals.allSatisfy { $0.subscriberCount == 0 })
  }

  @Test("synchronous inputs: the latest value of the first is combined with each value of the second")
  func synchronousInputs() {
    let recorder = EventRecorder(Signal.combineLatest([Signal<Int, Never>.values([1, 2]), .values([10, 20])]))
    #expect(recorder.events == [.next([2, 10]), .next([2, 20]), .completed])
  }

  @Test("a downstream callback that sends into a source gets its combination after the current one")
  func reentrantSend() {
    let numbers = Subject<Int, Never>()
    let others = Subject<Int, Never>()
    let log = Locked<[String]>([])
    numbers.combineLatest(with: others).subscribeNext { left, right in
      log.append("start \(left)\(right)")
      if left == 1 { numbers.sendNext(2) }
      log.append("end \(left)\(right)")
    }
    others.sendNext(0)
    numbers.sendNext(1)
    #expect(log.value == ["start 10", "end 10", "start 20", "end 20"])
  }

  @Test("two producer threads: one combination per value, each side's values in order, never concurrently")
  nonisolated func twoThreads() async {
    let left = Subject<Int, Never>()
    let right = Subject<Int, Never>()
    let received = Locked<[(Int, Int)]>([])
    let probe = OverlapProbe()
    left.combineLatest(with: right).subscribeNext { pair in
      probe.enter()
      received.append(pair)
      probe.leave()
    }
    left.sendNext(-1)
    right.sendNext(-1)
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      for value in 0..<10_000 { (side == 0 ? left : right).sendNext(value) }
    }
    let pairs = received.value
    #expect(pairs.count == 20_001)
    #expect(zip(pairs, pairs.dropFirst()).allSatisfy { $0.0 <= $1.0 && $0.1 <= $1.1 })
    #expect(pairs.last.map { $0 == (9_999, 9_999) } ?? false)
    #expect(probe.overlaps == 0)
  }

  // MARK: and / or

  @Test("Signal.and is the AND of the latest values (RAC's -and over +combineLatest:)")
  func and() {
    let first = Subject<Bool, Never>()
    let second = Subject<Bool, Never>()
    let recorder = EventRecorder(Signal.and([first, second]))
    first.sendNext(true)
    #expect(recorder.events.isEmpty)
    second.sendNext(false)
    second.sendNext(true)
    first.sendNext(false)
    #expect(recorder.values == [false, true, false])
  }

  @Test("Signal.or is the OR of the latest values (RAC's -or over +combineLatest:)")
  func or() {
    let first = Subject<Bool, Never>()
    let second = Subject<Bool, Never>()
    let recorder = EventRecorder(Signal.or([first, second]))
    first.sendNext(false)
    second.sendNext(false)
    second.sendNext(true)
    first.sendNext(true)
    second.sendNext(false)
    #expect(recorder.values == [false, true, true, true])
  }

  @Test("and/or of an empty collection complete without a value; on empty arrays they are true and false")
  func emptyAndOr() {
    #expect(EventRecorder(Signal<Bool, Never>.and([])).events == [.completed])
    #expect(EventRecorder(Signal<Bool, Never>.or([])).events == [.completed])
    #expect(EventRecorder(Signal<[Bool], Never>.return([]).and()).values == [true])
    #expect(EventRecorder(Signal<[Bool], Never>.return([]).or()).values == [false])
  }

  @Test("and/or pass failures through")
  func andFailure() {
    let first = Subject<Bool, TestError>()
    let recorder = EventRecorder(Signal.and([first, .return(true)]))
    first.sendError(TestError(code: 4))
    #expect(recorder.events == [.error(TestError(code: 4))])
  }
}

@MainActor
@Suite("combineLatest of five and six signals")
struct WideCombineLatestTests {
  @Test("five and six signals combine into flat tuples, and any one of them sending gives one new tuple")
  func wideArities() {
    let subjects = (0..<6).map { _ in Subject<Int, Never>() }
    let five = EventRecorder(Signal.combineLatest(subjects[0], subjects[1], subjects[2], subjects[3], subjects[4]))
    let six = EventRecorder(
      Signal.combineLatest(subjects[0], subjects[1], subjects[2], subjects[3], subjects[4], subjects[5]))
    for (index, subject) in subjects.enumerated() { subject.sendNext(index) }
    subjects[2].sendNext(20)
    #expect(five.values.map { [$0, $1, $2, $3, $4] } == [[0, 1, 2, 3, 4], [0, 1, 20, 3, 4]])
    #expect(six.values.map { [$0, $1, $2, $3, $4, $5] } == [[0, 1, 2, 3, 4, 5], [0, 1, 20, 3, 4, 5]])
    for subject in subjects { subject.sendCompleted() }
    #expect(five.isCompleted && six.isCompleted)
  }
}
