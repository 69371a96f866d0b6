import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// A scheduler that counts the blocks scheduled on it and runs them on a test scheduler.
private final class CountingScheduler: Scheduler {
  let base = TestScheduler()
  let scheduled = Locked(0)

  var now: Date { base.now }

  func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    scheduled.increment()
    return base.schedule(action)
  }

  func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    scheduled.increment()
    return base.schedule(after: date, action)
  }

  func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    base.schedule(after: date, repeatingEvery: interval, leeway: leeway, action)
  }
}

@MainActor
@Suite("MemoizedSequence")
struct MemoizedSequenceTests {
  /// 1, 2, …, `count`, built with head and tail closures that count their runs.
  private nonisolated static func counted(_ count: Int, heads: Locked<Int>, tails: Locked<Int>, from start: Int = 1)
    -> MemoizedSequence<Int>
  {
    MemoizedSequence(
      head: {
        heads.increment()
        return start <= count ? start : nil
      },
      tail: {
        tails.increment()
        return start < count ? Self.counted(count, heads: heads, tails: tails, from: start + 1) : nil
      })
  }

  @Test("head and tail closures run once per element, however often the sequence is read")
  func memoisation() {
    let heads = Locked(0)
    let tails = Locked(0)
    let sequence = Self.counted(3, heads: heads, tails: tails)
    #expect(heads.value == 0)
    #expect(sequence.head == 1)
    #expect(sequence.head == 1)
    #expect(heads.value == 1 && tails.value == 0)
    #expect(sequence.array == [1, 2, 3])
    #expect(sequence.array == [1, 2, 3])
    #expect(Array(sequence) == [1, 2, 3])
    #expect(heads.value == 3 && tails.value == 3)  // the last tail closure runs to find the end
  }

  @Test("tail is nil only for an empty sequence: the last element's tail is an empty sequence (RAC's differ by kind)")
  func tailOfTheLastElement() {
    #expect(MemoizedSequence<Int>([]).tail == nil)
    let fromArray = MemoizedSequence([1]).tail
    #expect(fromArray != nil && fromArray?.isEmpty == true && fromArray?.head == nil && fromArray?.tail == nil)
    let fromReturn = MemoizedSequence<Int>.return(1).tail
    #expect(fromReturn != nil && fromReturn?.isEmpty == true)
  }

  @Test("reading tail does not run the tail closure; reading the tail's head (or isEmpty) does")
  func tailClosureRunsOneLevelLater() {
    let tails = Locked(0)
    let one = MemoizedSequence<Int>(head: { 1 }, tail: {
      tails.increment()
      return nil
    })
    let tail = one.tail
    #expect(tail != nil)
    #expect(tails.value == 0)  // RAC's dynamic sequence would have run the tail block here, and answered nil
    #expect(tail?.head == nil)
    #expect(tails.value == 1)
  }

  @Test("RAC's head/tail walk ports as a loop on head, with tail! (tail is never nil while head is not)")
  func headTailWalk() {
    var walked: [Int] = []
    var sequence = MemoizedSequence<Int>(head: { 1 }, tail: { MemoizedSequence([2, 3]) })
    while let head = sequence.head {
      walked.append(head)
      sequence = sequence.tail!
    }
    #expect(walked == [1, 2, 3])
  }

  @Test("a lazy map runs its transform once per element read, and only when read")
  func lazyMap() {
    let runs = Locked(0)
    let mapped = MemoizedSequence([1, 2, 3]).map { value -> Int in
      runs.increment()
      return value * 10
    }
    #expect(runs.value == 0)
    #expect(mapped.head == 10)
    #expect(runs.value == 1)
    #expect(mapped.array == [10, 20, 30])
    #expect(mapped.array == [10, 20, 30])
    #expect(runs.value == 3)
  }

  @Test("eager sequences compute derived sequences at once; lazySequence makes them lazy again")
  func eagerAndLazy() {
    let runs = Locked(0)
    let eager = MemoizedSequence([1, 2, 3]).eagerSequence
    let mapped = eager.map { value -> Int in
      runs.increment()
      return value + 1
    }
    #expect(runs.value == 3)
    #expect(mapped.filter { $0 > 2 }.array == [3, 4])
    let lazy = eager.lazySequence.map { value -> Int in
      runs.increment()
      return value
    }
    #expect(runs.value == 3)
    #expect(lazy.array == [1, 2, 3])
    #expect(runs.value == 6)
  }

  @Test("eight threads reading one lazy sequence: each element is computed once and all see the same values")
  func threadSafeMemoisation() {
    let runs = Locked(0)
    let sequence = MemoizedSequence(0..<1_000).map { value -> Int in
      runs.increment()
      return value * 2
    }
    let results = Locked<[[Int]]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in results.append(sequence.array) }
    #expect(runs.value == 1_000)
    #expect(results.value.allSatisfy { $0 == Array(stride(from: 0, to: 2_000, by: 2)) })
  }

  @Test("head, tail and isEmpty; empty and return")
  func headAndTail() {
    let sequence = MemoizedSequence([1, 2])
    #expect(sequence.head == 1)
    #expect(sequence.tail?.head == 2)
    #expect(sequence.tail?.tail?.isEmpty == true)
    #expect(sequence.tail?.tail?.tail == nil)
    #expect(MemoizedSequence<Int>.empty.head == nil && MemoizedSequence<Int>.empty.isEmpty)
    #expect(MemoizedSequence.return(5).array == [5])
  }

  @Test("generating: the closure is called once per element, in order, and not after the end")
  func generating() {
    let calls = Locked(0)
    let sequence = MemoizedSequence<Int>(generating: {
      let call = calls.increment()
      return call <= 3 ? call : nil
    })
    #expect(sequence.array == [1, 2, 3])
    #expect(sequence.array == [1, 2, 3])
    #expect(calls.value == 4)
  }

  @Test("filter, concat, flattenMap and zip(with:)")
  func operations() {
    let numbers = MemoizedSequence(1...6)
    #expect(numbers.filter { $0 % 2 == 0 }.array == [2, 4, 6])
    #expect(MemoizedSequence([1, 2]).concat(MemoizedSequence([3])).array == [1, 2, 3])
    #expect(MemoizedSequence<Int>.empty.concat(.return(1)).array == [1])
    let repeated = MemoizedSequence([0, 1, 2, 0]).flattenMap { MemoizedSequence(repeatElement($0, count: $0)) }
    #expect(repeated.array == [1, 2, 2])
    let pairs = MemoizedSequence([1, 2, 3]).zip(with: MemoizedSequence(["a", "b"]))
    #expect(pairs.map { "\($0)\($1)" }.array == ["1a", "2b"])
    #expect(MemoizedSequence([1, 2]) == MemoizedSequence([1, 2]))
    #expect(MemoizedSequence([1, 2]) != MemoizedSequence([1]))
  }

  @Test("a filter that rejects a long run, and a flattenMap of many empty sequences, use no stack per element")
  nonisolated func longRuns() async {
    let evens = MemoizedSequence(0..<200_000).filter { $0 == 199_999 }
    #expect(evens.array == [199_999])
    let flattened = MemoizedSequence(0..<200_000).flattenMap { $0 == 199_999 ? .return($0) : .empty }
    #expect(flattened.array == [199_999])
  }

  @Test("foldLeft folds from the first element; foldRight from the last")
  func folds() {
    let letters = MemoizedSequence(["a", "b", "c"])
    #expect(letters.foldLeft("") { $0 + $1 } == "abc")
    #expect(letters.foldRight("") { element, rest in element + rest() } == "abc")
    #expect(letters.foldRight("") { element, rest in rest() + element } == "cba")
    #expect(MemoizedSequence<Int>.empty.foldRight(7) { _, rest in rest() } == 7)
  }

  @Test("foldRight is lazy: a reduce that does not call rest reads no further element")
  func lazyFoldRight() {
    let reads = Locked(0)
    let numbers = MemoizedSequence([1, -2, 3, 4]).map { value -> Int in
      reads.increment()
      return value
    }
    #expect(numbers.foldRight(false) { element, rest in element < 0 || rest() })
    #expect(reads.value == 2)
    #expect(numbers.foldRight(0) { element, rest in rest() + rest() - rest() + element } == 6)  // rest runs once
  }

  @Test("any, all and first(where:) read only as far as they must")
  func predicates() {
    let reads = Locked(0)
    let numbers = MemoizedSequence(1...100).map { value -> Int in
      reads.increment()
      return value
    }
    #expect(numbers.any { $0 == 3 })
    #expect(reads.value == 3)
    #expect(!numbers.all { $0 < 5 })
    #expect(reads.value == 5)
    #expect(numbers.first { $0 > 6 } == 7)
    #expect(reads.value == 7)
    #expect(!MemoizedSequence<Int>.empty.any { _ in true } && MemoizedSequence<Int>.empty.all { _ in false })
  }

  @Test("releasing a memoised sequence of 200 000 elements does not overflow the stack")
  nonisolated func longChainRelease() async {
    let count = Locked(0)
    var sequence: MemoizedSequence<Int>? = MemoizedSequence(generating: {
      let value = count.increment()
      return value <= 200_000 ? value : nil
    })
    #expect(sequence?.foldLeft(0) { $0 + ($1 & 1) } == 100_000)
    sequence = nil
    #expect(sequence == nil)
  }

  @Test("a head closure that reads its own sequence stops with a message")
  func selfReference() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let box = Locked<MemoizedSequence<Int>?>(nil)
      let sequence = MemoizedSequence<Int>(head: { box.value?.head }, tail: { nil })
      box.value = sequence
      _ = sequence.head
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("MemoizedSequence: a head or tail closure read the sequence it is computing"))
  }
}

@MainActor
@Suite("MemoizedSequence and signals")
struct MemoizedSequenceSignalTests {
  @Test("signal(on:) schedules one block per element, plus one for completion")
  func signalOnScheduler() {
    let scheduler = CountingScheduler()
    let recorder = EventRecorder(MemoizedSequence([1, 2, 3]).signal(on: scheduler))
    #expect(recorder.events.isEmpty)
    scheduler.base.run()
    #expect(recorder.events == [.next(1), .next(2), .next(3), .completed])
    #expect(scheduler.scheduled.value == 4)
  }

  @Test("signal(on: .immediate) of 100 000 elements runs in constant stack depth")
  nonisolated func signalConstantStack() async {
    let count = Locked(0)
    let completed = Locked(false)
    MemoizedSequence(0..<100_000).signal(on: .immediate).subscribeNext(
      { _ in count.increment() }, completed: { completed.value = true })
    #expect(count.value == 100_000 && completed.value)
  }

  @Test("signal(on:) sends lazy and evaluated elements alike, and an empty sequence only completes")
  func signalWalksEveryStorage() {
    let lazy = MemoizedSequence(1...3).map { $0 * 10 }
    let expected: [Event<Int, Never>] = [.next(10), .next(20), .next(30), .completed]
    #expect(EventRecorder(lazy.signal(on: .immediate)).events == expected)
    #expect(EventRecorder(lazy.eagerSequence.signal(on: .immediate)).events == expected)
    #expect(EventRecorder(lazy.tail!.signal(on: .immediate)).events == Array(expected.dropFirst()))
    #expect(EventRecorder(MemoizedSequence<Int>.empty.signal(on: .immediate)).events == [.completed])
  }

  @Test("a subscriber that stops ends the walk: no further element is read")
  func signalStops() {
    let reads = Locked(0)
    let numbers = MemoizedSequence(1...10).map { value -> Int in
      reads.increment()
      return value
    }
    let received = Locked<[Int]>([])
    _ = numbers.signal(on: .immediate).attach { event in
      guard let value = event.value else { return .proceed }
      received.append(value)
      return value == 2 ? .stop : .proceed
    }
    #expect(received.value == [1, 2])
    #expect(reads.value == 2)
  }

  @Test("signal() sends the elements on a background scheduler")
  nonisolated func signalOnBackground() async {
    let values = Locked<[Int]>([])
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      MemoizedSequence([1, 2]).signal().subscribeNext({ values.append($0) }, completed: { continuation.resume() })
    }
    #expect(values.value == [1, 2])
  }

  @Test("a signal's sequence subscribes now and blocks when a value not yet sent is read")
  func blockingSequence() {
    let subject = Subject<Int, Never>()
    let sequence = subject.sequence
    #expect(subject.subscriberCount == 1)
    subject.sendNext(1)
    #expect(sequence.head == 1)  // already sent: no wait
    let result = Locked<[Int]?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      result.value = sequence.array
      done.signal()
    }
    subject.sendNext(2)
    #expect(done.wait(timeout: .now()) == .timedOut)  // still waiting for the end
    subject.sendNext(3)
    subject.sendCompleted()
    done.wait()
    #expect(result.value == [1, 2, 3])
    #expect(sequence.array == [1, 2, 3])  // memoised
  }

  @Test("resultSequence ends with the failure instead of dropping it")
  func resultSequence() {
    let subject = ReplaySubject<Int, TestError>()
    subject.sendNext(1)
    subject.sendError(TestError(code: 2))
    let results = subject.resultSequence.array
    #expect(results.count == 2)
    #expect((try? results[0].get()) == 1)
    if case .failure(let error) = results[1] { #expect(error == TestError(code: 2)) } else { Issue.record() }
  }

  @Test("dropping the sequence disposes its subscription")
  func droppingDisposes() {
    let subject = Subject<Int, Never>()
    do {
      let sequence = subject.sequence
      subject.sendNext(1)
      #expect(sequence.head == 1)
    }
    #expect(subject.subscriberCount == 0)
  }
}
