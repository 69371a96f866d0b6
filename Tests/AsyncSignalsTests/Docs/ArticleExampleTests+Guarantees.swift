import AsyncSignals
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

// MARK: Guarantees.md

extension ArticleExampleTests {
  @Test("Guarantees 1: a thousand values sent from many threads are counted without a lock")
  func guaranteesSerialDelivery() {
    let hits = Signal<Int, Never>.create { subscriber in
      DispatchQueue.concurrentPerform(iterations: 1000) { subscriber.sendNext($0) }
      subscriber.sendCompleted()
      return nil
    }
    hits.aggregate(0) { count, _ in count + 1 }.subscribeNext { print($0) }
    // 1000
    #expect(console.lines == ["1000"])
  }

  @Test("Guarantees 2: sends after the completion are ignored")
  func guaranteesTerminal() {
    let signal = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(1)
      subscriber.sendCompleted()
      subscriber.sendNext(2)  // ignored: the signal has completed
      subscriber.sendCompleted()  // ignored as well
      return nil
    }
    signal.subscribeNext({ print($0) }, completed: { print("completed") })
    // 1, completed
    #expect(console.lines == ["1", "completed"])
  }

  @Test("Guarantees 2: a subscriber that disposes itself in take(1)'s value is not called with the completion")
  func guaranteesSelfDisposal() {
    let subject = Subject<Int, Never>()
    let subscription = SerialDisposable()
    subscription.inner = subject.take(1).subscribeNext({ value in
      print(value)
      subscription.dispose()
    }, completed: { print("completed") })  // not called: the subscription was disposed first
    subject.sendNext(1)
    // 1
    #expect(console.lines == ["1"])
  }

  @Test("Guarantees 5: a producer thread that waits for subscriberCount loses nothing it sends after")
  func guaranteesAttached() {
    for _ in 0..<100 {
      console.reset()
      let lines = Subject<String, Never>()
      let consumer = Thread { _ = lines.subscribeNext { print("got", $0) } }
      consumer.start()
      while lines.subscriberCount == 0 { sched_yield() }  // the consumer is attached: nothing sent now is lost
      lines.sendNext("first line")
      // got first line
      #expect(console.lines == ["got first line"])
    }
  }

  @Test("Guarantees 3: eight racing disposals close the file once; a disposed compound disposes a newcomer")
  func guaranteesDisposal() {
    let file = ActionDisposable { print("closed the file") }
    DispatchQueue.concurrentPerform(iterations: 8) { _ in file.dispose() }
    // closed the file (once)

    let subscriptions = CompoundDisposable()
    subscriptions.dispose()
    subscriptions.add(ActionDisposable { print("disposed at once") })
    // disposed at once
    #expect(console.lines == ["closed the file", "disposed at once"])
  }

  @Test("Guarantees 4: each subscription launches the missiles again")
  func guaranteesCold() {
    let launch = Signal<String, Never>.create { subscriber in
      print("launching missiles")
      subscriber.sendNext("launched")
      subscriber.sendCompleted()
      return nil
    }
    launch.subscribeNext { print("first:", $0) }
    launch.subscribeNext { print("second:", $0) }
    // launching missiles, first: launched, launching missiles, second: launched
    #expect(
      console.lines == ["launching missiles", "first: launched", "launching missiles", "second: launched"])
  }

  @Test("Guarantees 5: subscribe(on:) runs a blocking body on the worker's queue, not in the subscribing task")
  nonisolated func guaranteesBlockingBody() async {
    let ranOn = Locked<(any Scheduler)?>(nil)
    let unblock = DispatchSemaphore(value: 0)
    /// A subscribe body that blocks its thread until the file is "read", as a synchronous API would.
    func readFileBlocking(_ path: String) -> Signal<String, Never> {
      .create { subscriber in
        ranOn.value = Schedulers.current
        unblock.wait()
        subscriber.sendNext("contents of \(path)")
        subscriber.sendCompleted()
        return nil
      }
    }
    let path = "notes.txt"
    let worker = QueueScheduler(name: "file reader")
    let contents = readFileBlocking(path).subscribe(on: worker)  // the blocking body runs on the worker's queue
    let received = Locked<[String]>([])
    contents.subscribeNext { received.append($0) }  // returns at once: this task's thread is not blocked
    unblock.signal()
    await withCheckedContinuation { continuation in worker.queue.async { continuation.resume() } }
    #expect(ranOn.value === worker)
    #expect(received.value == ["contents of notes.txt"])
  }

  @Test("Guarantees 6: take(3) on a subject whose handler sends back into it yields 0, 1, 2 and completes")
  func guaranteesReentrancy() {
    let numbers = Subject<Int, Never>()
    numbers.take(3).subscribeNext(
      { value in
        print(value)
        numbers.sendNext(value + 1)  // sent from the handler: delivered once this value is done
      }, completed: { print("completed") })
    numbers.sendNext(0)
    // 0, 1, 2, completed
    #expect(console.lines == ["0", "1", "2", "completed"])
    #expect(numbers.subscriberCount == 0)
  }

  @Test("Guarantees 7: repeating a synchronous signal 100 000 times runs in constant stack depth")
  func guaranteesConstantStack() {
    let ones = Signal<Int, Never>.return(1).repeat().take(100_000)
    ones.aggregate(0, +).subscribeNext { print($0) }
    // 100000
    #expect(console.lines == ["100000"])
  }

  @Test("Guarantees 9: a negative count stops the program with the method and the argument")
  nonisolated func guaranteesBadInput() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let firstFew = Signal<Int, Never>.never.take(-1)
      // Fatal error: take(_:): count must not be negative
      _ = firstFew
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("take(_:): count must not be negative"))
  }
}
