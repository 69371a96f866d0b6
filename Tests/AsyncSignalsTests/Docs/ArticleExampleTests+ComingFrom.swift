import AsyncSignals
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

// MARK: ComingFromCombineReactiveSwiftAndRxSwift.md

extension ArticleExampleTests {
  @Test("ComingFrom: RAC's throttle is their debounce; of a burst, the latest wins after a quiet interval")
  func comingFromDebounce() {
    let scheduler = TestScheduler()
    let typed = Subject<String, Never>()
    typed.throttle(.milliseconds(300), on: scheduler).subscribeNext { print("search", $0) }
    typed.sendNext("s")
    typed.sendNext("sw")
    scheduler.advance(by: .milliseconds(100))
    typed.sendNext("swi")
    scheduler.advance(by: .milliseconds(300))
    // search swi
    #expect(console.lines == ["search swi"])
  }

  @Test("ComingFrom: their throttle limits a rate: throttleFirst drops within the interval, throttleLatest keeps")
  func comingFromThrottle() {
    let scheduler = TestScheduler()
    let taps = Subject<Int, Never>()
    taps.throttleFirst(.seconds(1), on: scheduler).subscribeNext { print("first", $0) }
    taps.throttleLatest(.seconds(1), on: scheduler).subscribeNext { print("latest", $0) }
    taps.sendNext(1)
    taps.sendNext(2)
    taps.sendNext(3)
    scheduler.advance(by: .seconds(1))
    // first 1, latest 1, latest 3
    #expect(console.lines == ["first 1", "latest 1", "latest 3"])
  }

  @Test("ComingFrom: flatMap(.latest) / flatMapLatest is flattenMapLatest, map then switchToLatest")
  func comingFromFlatMapLatest() {
    let responses = ["s": Subject<String, Never>(), "sw": Subject<String, Never>()]
    let typed = Subject<String, Never>()
    typed.flattenMapLatest { responses[$0]! }.subscribeNext { print($0) }
    typed.sendNext("s")
    typed.sendNext("sw")
    responses["s"]!.sendNext("late results for s")  // dropped: "sw" replaced that search
    responses["sw"]!.sendNext("results for sw")
    // results for sw
    #expect(console.lines == ["results for sw"])
  }

  @Test("ComingFrom: doDisposed runs on disposal (receiveCancel), finally on the end; together, Rx's onDispose")
  func comingFromDoDisposed() {
    let downloads = Subject<Int, Never>()
    let tracked = downloads.doDisposed { print("cancelled") }.finally { print("ended") }
    let first = tracked.subscribeNext { print("first", $0) }
    tracked.take(1).subscribeNext { print("second", $0) }
    downloads.sendNext(1)
    // first 1, second 1, cancelled
    first.dispose()
    // cancelled
    tracked.subscribeNext { print("third", $0) }
    downloads.sendCompleted()
    // ended
    #expect(console.lines == ["first 1", "second 1", "cancelled", "cancelled", "ended"])
  }

  @Test("ComingFrom: publish().autoconnect() shares like share(), but never connects again after the last leaves")
  func comingFromShare() {
    let source = Signal<Int, Never>.create { subscriber in
      print("connected")
      subscriber.sendNext(1)
      return ActionDisposable { print("disconnected") }
    }
    let shared = source.publish().autoconnect()
    let a = shared.subscribeNext { print("a", $0) }
    let b = shared.subscribeNext { print("b", $0) }
    a.dispose()
    b.dispose()
    shared.subscribeNext { print("c", $0) }  // RxSwift's share() would connect again here
    // connected, a 1, disconnected
    #expect(console.lines == ["connected", "a 1", "disconnected"])
  }

  @Test("ComingFrom: Action is Command; executing while running fails with notEnabled")
  func comingFromAction() {
    let scheduler = TestScheduler()
    let save = Command<String, String, Never>(scheduler: scheduler) { draft in .return("saved \(draft)") }
    save.execute("draft 1").subscribeNext({ print($0) }, error: { print("not run:", $0) })
    save.execute("draft 2").subscribeNext({ print($0) }, error: { print("not run:", $0) })
    scheduler.advance()
    // not run: notEnabled, saved draft 1
    #expect(console.lines == ["not run: notEnabled", "saved draft 1"])
  }
}
