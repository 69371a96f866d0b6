import AsyncSignals
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

// MARK: Schedulers.md

/// "When subscribing is asynchronous": in a task, the work runs at once. Nonisolated, so it runs off the main
/// actor, in a task with no current scheduler.
func firstValues() async -> [Int] {
  let received = Locked<[Int]>([])  // a lock-protected array
  Signal<Int, Never>.create { subscriber in
    print("current is the subscription scheduler:", Schedulers.current === SubscriptionScheduler.shared)
    for value in 1...3 { subscriber.sendNext(value) }
    subscriber.sendCompleted()
    return nil
  }.subscribeNext { received.append($0) }
  return received.value  // [1, 2, 3]: delivered before subscribeNext returned
}
// current is the subscription scheduler: true

extension ArticleExampleTests {
  @Test("Schedulers: in a task, the work of a signal that sends at once is done when subscribeNext returns")
  func schedulersSubscribingInATask() async {
    #expect(await firstValues() == [1, 2, 3])
    #expect(await console.lines(atLeast: 1) == ["current is the subscription scheduler: true"])
  }
}

extension ArticleExampleTests {
  @Test("Schedulers: subscribe(on:) runs the work on the worker; deliver(on:) delivers on the main queue")
  func schedulersSubscribeOnDeliverOn() async {
    let worker = QueueScheduler(name: "worker")
    let report = Signal<String, Never>.create { subscriber in
      print("working on the worker:", Schedulers.current === worker)
      subscriber.sendNext("report")
      subscriber.sendCompleted()
      return nil
    }
    report
      .subscribe(on: worker)
      .deliver(on: QueueScheduler.main)
      .subscribeNext { print("\($0) delivered on the main queue:", Schedulers.current === QueueScheduler.main) }
    // working on the worker: true
    // report delivered on the main queue: true
    let lines = await console.lines(atLeast: 2)
    #expect(lines == ["working on the worker: true", "report delivered on the main queue: true"])
  }

  @Test("Schedulers: the work runs at once on the main queue and in a scheduler's block, else in the background")
  func schedulersSubscriptionScheduling() async {
    let whereAmI = Signal<String, Never>.create { subscriber in
      subscriber.sendNext((Schedulers.current as? QueueScheduler)?.name ?? "no scheduler")
      subscriber.sendCompleted()
      return nil
    }
    whereAmI.subscribeNext { print("from the main queue:", $0) }
    QueueScheduler(name: "worker").schedule {
      whereAmI.subscribeNext { print("from a scheduler's block:", $0) }
    }
    DispatchQueue.global().async {
      whereAmI.subscribeNext { print("from a plain thread:", $0) }
    }
    // from the main queue: AsyncSignals.main
    // from a scheduler's block: worker
    // from a plain thread: AsyncSignals.background   (these last two in either order)
    let lines = await console.lines(atLeast: 3)
    #expect(lines.first == "from the main queue: AsyncSignals.main")
    #expect(
      Set(lines.dropFirst()) == [
        "from a scheduler's block: worker", "from a plain thread: AsyncSignals.background",
      ])
  }
}
