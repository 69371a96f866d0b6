import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("zip: pairwise, 2…N heterogeneous signals, a collection")
struct ZipTests {
  private func pairs(_ recorder: EventRecorder<(Int, String), TestError>) -> [String] {
    recorder.events.map { event in
      switch event {
      case .next(let (number, letter)): return "\(number)\(letter)"
      case .error(let error): return "\(error)"
      case .completed: return "completed"
      }
    }
  }

  @Test("pairs values by index, buffering whichever side runs ahead")
  func pairsByIndex() {
    let numbers = Subject<Int, TestError>()
    let letters = Subject<String, TestError>()
    let recorder = EventRecorder(numbers.zip(with: letters))
    numbers.sendNext(1)
    numbers.sendNext(2)
    numbers.sendNext(3)
    letters.sendNext("a")
    letters.sendNext("b")
    #expect(pairs(recorder) == ["1a", "2b"])
  }

  @Test("completes when a completed side has nothing left waiting (RAC's rule)")
  func completion() {
    let numbers = Subject<Int, TestError>()
    let letters = Subject<String, TestError>()
    let recorder = EventRecorder(numbers.zip(with: letters))
    numbers.sendNext(1)
    numbers.sendNext(2)
    numbers.sendCompleted()
    #expect(pairs(recorder).isEmpty)
    letters.sendNext("a")
    #expect(pairs(recorder) == ["1a"])
    letters.sendNext("b")
    #expect(pairs(recorder) == ["1a", "2b", "completed"])
    #expect(letters.subscriberCount == 0)
  }

  @Test("a failure of either side fails the result and disposes the other")
  func failure() {
    let numbers = Subject<Int, TestError>()
    let letters = Subject<String, TestError>()
    let recorder = EventRecorder(numbers.zip(with: letters))
    letters.sendError(TestError(code: 5))
    #expect(pairs(recorder) == ["TestError(5)"])
    #expect(numbers.subscriberCount == 0)
  }

  @Test("disposing the result disposes both sides")
  func disposal() {
    let numbers = Subject<Int, TestError>()
    let letters = Subject<String, TestError>()
    let recorder = EventRecorder(numbers.zip(with: letters))
    recorder.dispose()
    #expect(numbers.subscriberCount == 0 && letters.subscriberCount == 0)
  }

  @Test("one side far ahead stays linear: a ring buffer, not removal from the front of an array")
  nonisolated func farAhead() async {
    let numbers = Subject<Int, Never>()
    let others = Subject<Int, Never>()
    let count = Locked(0)
    numbers.zip(with: others).subscribeNext { _ in count.increment() }
    for value in 0..<100_000 { numbers.sendNext(value) }
    for value in 0..<100_000 { others.sendNext(value) }
    #expect(count.value == 100_000)
  }

  @Test("two producer threads: every pair exactly once, in index order")
  nonisolated func twoThreads() async {
    let numbers = Subject<Int, Never>()
    let others = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let mismatches = Locked(0)
    numbers.zip(with: others).subscribeNext { left, right in
      if left != right { mismatches.increment() }
      received.append(left)
    }
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      for value in 0..<10_000 { (side == 0 ? numbers : others).sendNext(value) }
    }
    #expect(received.value == Array(0..<10_000))
    #expect(mismatches.value == 0)
  }

  @Test("a downstream callback that sends into a source gets its pair after the current one")
  func reentrantSend() {
    let numbers = Subject<Int, Never>()
    let others = Subject<Int, Never>()
    let log = Locked<[String]>([])
    numbers.zip(with: others).subscribeNext { left, right in
      log.append("start \(left)")
      if left == 1 {
        numbers.sendNext(2)
        others.sendNext(2)
      }
      log.append("end \(left)")
    }
    numbers.sendNext(1)
    others.sendNext(1)
    #expect(log.value == ["start 1", "end 1", "start 2", "end 2"])
  }

  @Test("completion releases the observer and what it captured, while the subscription is still held")
  func completionReleasesObserver() {
    let tracker = LifetimeTracker()
    let numbers = Subject<Int, Never>()
    let others = Subject<Int, Never>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      return numbers.zip(with: others).subscribeNext { _ in _ = captured }
    }()
    numbers.sendNext(1)
    numbers.sendCompleted()
    #expect(tracker.liveCount == 1)  // 1 waits for its partner
    others.sendNext(1)
    #expect(tracker.liveCount == 0)
    #expect(numbers.subscriberCount == 0 && others.subscriberCount == 0)
    withExtendedLifetime(disposable) {}
  }

  /// A signal whose subscriber the test drives: its sink delivers a send from inside a callback at once, nested
  /// (a subject would hold it back until its turn ends), so a pair can be completed while another is delivered.
  private func driven<Value: Sendable, Failure: Error>(
    _ type: Value.Type, _ failure: Failure.Type
  ) -> (Signal<Value, Failure>, Locked<(any Subscriber<Value, Failure>)?>) {
    let subscriber = Locked<(any Subscriber<Value, Failure>)?>(nil)
    return (Signal.create { new in subscriber.withLock { $0 = new }; return nil }, subscriber)
  }

  @Test("disposal inside a pair's callback: the pair queued behind it never comes, the observer goes after it returns")
  func disposalInsideCallback() {
    let tracker = LifetimeTracker()
    let (numbers, number) = driven(Int.self, Never.self)
    let others = Subject<Int, Never>()
    let log = Locked<[String]>([])
    let subscription = Locked<(any Disposable)?>(nil)
    subscription.withLock { slot in
      let captured = tracker.make()
      slot = numbers.zip(with: others).subscribeNext { left, _ in
        _ = captured
        log.append("pair \(left)")
        guard left == 1 else { return }
        others.sendNext(2)
        number.value?.sendNext(2)  // completes pair 2, queued behind pair 1
        subscription.value?.dispose()
        log.append("alive \(tracker.liveCount)")
      }
    }
    others.sendNext(1)
    number.value?.sendNext(1)
    #expect(log.value == ["pair 1", "alive 1"])
    #expect(tracker.liveCount == 0)
    #expect(others.subscriberCount == 0)
  }

  @Test("events decided inside a pair's callback come after it, in order, and a failure ends the result")
  func failureInsideCallback() {
    let (numbers, number) = driven(Int.self, TestError.self)
    let letters = Subject<String, TestError>()
    let log = Locked<[String]>([])
    numbers.zip(with: letters).subscribeNext(
      { number0, letter in
        log.append("start \(number0)\(letter)")
        if number0 == 1 {
          letters.sendNext("b")
          number.value?.sendNext(2)  // pair 2: queued behind pair 1
          number.value?.sendError(TestError(code: 7))  // queued behind pair 2
          number.value?.sendNext(3)  // after the failure: never sent
        }
        log.append("end \(number0)\(letter)")
      }, error: { log.append("\($0)") }, completed: { log.append("completed") })
    letters.sendNext("a")
    letters.sendNext("c")
    number.value?.sendNext(1)
    #expect(log.value == ["start 1a", "end 1a", "start 2c", "end 2c", "TestError(7)"])
    #expect(letters.subscriberCount == 0)
  }

  // MARK: Any arity (RAC's +zip:)

  private func describe<T>(_ recorder: EventRecorder<T, TestError>) -> [String] {
    recorder.events.map { event in
      switch event {
      case .next(let tuple): return "\(tuple)"
      case .error(let error): return "\(error)"
      case .completed: return "completed"
      }
    }
  }

  @Test("Signal.zip of three signals of different types sends flat tuples in index order (RAC's +zip:)")
  func threeWay() {
    let numbers = Subject<Int, TestError>()
    let letters = Subject<String, TestError>()
    let flags = Subject<Bool, TestError>()
    let recorder = EventRecorder(Signal.zip(numbers, letters, flags))
    numbers.sendNext(1)
    numbers.sendNext(2)
    letters.sendNext("a")
    #expect(recorder.events.isEmpty)
    flags.sendNext(true)
    letters.sendNext("b")
    flags.sendNext(false)
    #expect(describe(recorder) == [#"(1, "a", true)"#, #"(2, "b", false)"#])
  }

  @Test("Signal.zip of six signals: every arity shares the engine; +zip:reduce: is a map on the tuple")
  func sixWay() {
    let signals = (0..<6).map { _ in Subject<Int, Never>() }
    let sums = EventRecorder(
      Signal.zip(signals[0], signals[1], signals[2], signals[3], signals[4], signals[5].map { "\($0)" })
        .map { a, b, c, d, e, f in "\(a + b + c + d + e)/\(f)" })
    for (index, signal) in signals.enumerated() { signal.sendNext(index) }
    #expect(sums.values == ["10/5"])
  }

  @Test("Signal.zip completes when any input has completed with nothing left waiting (RAC's rule)")
  func threeWayCompletion() {
    let first = Subject<Int, TestError>()
    let second = Subject<Int, TestError>()
    let third = Subject<Int, TestError>()
    let recorder = EventRecorder(Signal.zip(first, second, third))
    first.sendNext(1)
    first.sendNext(2)
    second.sendNext(1)
    second.sendCompleted()  // one value waits: not yet
    #expect(!recorder.isTerminated)
    third.sendNext(1)  // (1, 1, 1) uses it: second is exhausted
    #expect(describe(recorder) == ["(1, 1, 1)", "completed"])
    #expect(first.subscriberCount == 0 && third.subscriberCount == 0)
  }

  @Test("a failure of any input fails the result and disposes every other input")
  func threeWayFailure() {
    let first = Subject<Int, TestError>()
    let second = Subject<String, TestError>()
    let third = Subject<Double, TestError>()
    let recorder = EventRecorder(Signal.zip(first, second, third))
    first.sendNext(1)
    third.sendError(TestError(code: 3))
    #expect(describe(recorder) == ["TestError(3)"])
    #expect(first.subscriberCount == 0 && second.subscriberCount == 0)
  }

  @Test("disposing the result disposes every input and releases the buffered values (guarantee 8)")
  func threeWayDisposal() {
    let tracker = LifetimeTracker()
    let first = Subject<Tracked, Never>()
    let second = Subject<Int, Never>()
    let third = Subject<Int, Never>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      let disposable = Signal.zip(first, second, third).subscribeNext { _ in _ = captured }
      first.sendNext(tracker.make())  // waits in the buffer
      return disposable
    }()
    #expect(tracker.liveCount == 2)
    disposable.dispose()
    #expect(tracker.liveCount == 0)
    #expect(first.subscriberCount == 0 && second.subscriberCount == 0 && third.subscriberCount == 0)
  }

  @Test("an input that fails while it is subscribed to ends the result before the later inputs are subscribed")
  func earlyFailureSkipsLaterInputs() {
    let later = Subject<Int, TestError>()
    let recorder = EventRecorder(Signal.zip(Signal<Int, TestError>.error(TestError(code: 1)), later))
    #expect(recorder.errors == [TestError(code: 1)])
    #expect(later.subscriberCount == 0)
  }

  @Test("a downstream that stops after the first tuple disposes every input")
  func downstreamStop() {
    let first = Subject<Int, Never>()
    let second = Subject<Int, Never>()
    let recorder = EventRecorder(first.zip(with: second).firstValues(1).map { "\($0)\($1)" })
    first.sendNext(1)
    second.sendNext(2)
    #expect(recorder.events == [.next("12"), .completed])
    #expect(first.subscriberCount == 0 && second.subscriberCount == 0)
  }

  @Test("zip of a collection sends arrays in collection order (RAC's +zip: on an array)")
  func collection() {
    let signals = [Subject<Int, TestError>(), Subject<Int, TestError>(), Subject<Int, TestError>()]
    let recorder = EventRecorder(Signal.zip(signals))
    signals[2].sendNext(30)
    signals[0].sendNext(10)
    signals[0].sendNext(11)
    signals[1].sendNext(20)
    signals[2].sendNext(31)
    signals[1].sendNext(21)
    signals[0].sendCompleted()
    #expect(recorder.events == [.next([10, 20, 30]), .next([11, 21, 31]), .completed])
    #expect(signals.allSatisfy { $0.subscriberCount == 0 })
  }

  @Test("zip of an empty collection completes at once (RAC: +zip: of nothing is empty)")
  func emptyCollection() {
    let recorder = EventRecorder(Signal<Int, TestError>.zip([]))
    #expect(recorder.events == [.completed])
  }

  @Test("zip of a collection copies it when called")
  func collectionCopied() {
    var signals = [Signal<Int, Never>.return(1)]
    let zipped = Signal.zip(signals)
    signals.append(.return(2))
    #expect(EventRecorder(zipped).events == [.next([1]), .completed])
  }
}

@MainActor
@Suite("zip of five and six signals")
struct WideZipTests {
  @Test("five and six signals zip into flat tuples in argument order, as RAC's pairwise fold does")
  func wideArities() {
    let letters = Signal<String, Never>.return("a")
    let five = EventRecorder(Signal.zip(letters, .return(1), .return(2.5), .return(true), .return("e")))
    #expect(five.values.map { "\($0)-\($1)-\($2)-\($3)-\($4)" } == ["a-1-2.5-true-e"])
    #expect(five.isCompleted)
    let six = EventRecorder(Signal.zip(letters, .return(1), .return(2), .return(3), .return(4), .return(5)))
    #expect(six.values.map { [$1, $2, $3, $4, $5] } == [[1, 2, 3, 4, 5]])
  }
}
