import Testing

@testable import AsyncSignals

/// RAC 2.5's classic walkthroughs, with their exact outputs.
@MainActor
@Suite("RAC walkthroughs")
struct WalkthroughTests {
  @Test("a created signal sends its values and completion, then runs its dispose action exactly once")
  func createdSignalLifecycle() {
    let log = Locked<[String]>([])
    let signal = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(1)
      subscriber.sendNext(2)
      subscriber.sendNext(3)
      subscriber.sendCompleted()
      return ActionDisposable { log.append("disposed") }
    }
    let disposable = signal.subscribeNext({ log.append("\($0)") }, completed: { log.append("completed") })
    #expect(log.value == ["1", "2", "3", "completed", "disposed"])
    #expect(disposable.isDisposed)
    disposable.dispose()
    #expect(log.value == ["1", "2", "3", "completed", "disposed"])
  }

  @Test("bind doubles each value")
  func bindDoubles() {
    let numbers = Signal<Int, Never>.create { subscriber in
      for value in 1...3 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let doubled = EventRecorder(numbers.bind { { value, _ in .return(value * 2) } })
    #expect(doubled.events == [.next(2), .next(4), .next(6), .completed])
  }

  @Test("concat gives 1…6, then the second source's dispose action, then the first's")
  func concatOrder() {
    let log = Locked<[String]>([])
    func source(_ values: [Int], name: String) -> Signal<Int, Never> {
      .create { subscriber in
        for value in values { subscriber.sendNext(value) }
        subscriber.sendCompleted()
        return ActionDisposable { log.append("dispose \(name)") }
      }
    }
    source([1, 2, 3], name: "first").concat(source([4, 5, 6], name: "second"))
      .subscribeNext({ log.append("\($0)") }, completed: { log.append("completed") })
    #expect(log.value == ["1", "2", "3", "4", "5", "6", "completed", "dispose second", "dispose first"])
  }

  @Test("zip pairs (1,4), (2,5), (3,6), completes, and never pairs 7")
  func zipPairs() {
    let sevenSent = Locked(false)
    let left = Signal<Int, Never>.create { subscriber in
      for value in [1, 2, 3] { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let right = Signal<Int, Never>.create { subscriber in
      for value in [4, 5, 6] { subscriber.sendNext(value) }
      sevenSent.value = true
      subscriber.sendNext(7)
      subscriber.sendCompleted()
      return nil
    }
    let pairs = Locked<[String]>([])
    let completed = Locked(false)
    left.zip(with: right).subscribeNext({ pairs.append("(\($0), \($1))") }, completed: { completed.value = true })
    #expect(pairs.value == ["(1, 4)", "(2, 5)", "(3, 6)"])
    #expect(completed.value)
    #expect(sevenSent.value)
  }

  @Test("a cold signal repeats its side effect for each subscription (the missiles example)")
  func missiles() {
    let missilesLaunched = Locked(0)
    let launch = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(missilesLaunched.increment())
      subscriber.sendCompleted()
      return nil
    }
    let first = EventRecorder(launch)
    let second = EventRecorder(launch)
    #expect(first.values == [1])
    #expect(second.values == [2])
    #expect(missilesLaunched.value == 2)
  }
}
