import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("zip(with:)")
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
  func farAhead() {
    let numbers = Subject<Int, Never>()
    let others = Subject<Int, Never>()
    let count = Locked(0)
    numbers.zip(with: others).subscribeNext { _ in count.increment() }
    for value in 0..<100_000 { numbers.sendNext(value) }
    for value in 0..<100_000 { others.sendNext(value) }
    #expect(count.value == 100_000)
  }

  @Test("two producer threads: every pair exactly once, in index order")
  func twoThreads() {
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
}
