import AsyncSignals
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

// MARK: Testing.md

extension ArticleExampleTests {
  @Test("Testing: scheduled work runs when the virtual clock reaches its time, not a nanosecond earlier")
  func testingAdvance() {
    let scheduler = TestScheduler()
    scheduler.schedule(afterDelay: .seconds(1)) { print("one second") }
    scheduler.advance(by: .milliseconds(999))  // nothing yet
    scheduler.advance(by: .milliseconds(1))  // one second
    print(scheduler.now == Date(timeIntervalSinceReferenceDate: 1))
    // one second, true
    #expect(console.lines == ["one second", "true"])
  }

  @Test("Testing: throttle sends the latest keystroke of a burst once it has stayed the latest for 300 ms")
  func testingThrottle() {
    let scheduler = TestScheduler()
    let keystrokes = Subject<String, Never>()
    let searches = ObservableValue<[String]>([])
    keystrokes.throttle(.milliseconds(300), on: scheduler).subscribeNext { searches.value.append($0) }

    keystrokes.sendNext("s")
    scheduler.advance(by: .milliseconds(100))
    keystrokes.sendNext("sw")
    scheduler.advance(by: .milliseconds(299))
    #expect(searches.value == [])  // "sw" has not been the latest for 300 ms yet
    scheduler.advance(by: .milliseconds(1))
    #expect(searches.value == ["sw"])  // of the burst, the latest wins
  }

  @Test("Testing: timeout fails at exactly five seconds and disposes its source")
  func testingTimeout() {
    let scheduler = TestScheduler()
    let reply = Subject<String, Never>()
    let failures = ObservableValue<[TimeoutError]>([])
    reply.timeout(.seconds(5), on: scheduler).subscribeError { failures.value.append($0) }

    scheduler.advance(by: .milliseconds(4_999))
    #expect(failures.value.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(failures.value.count == 1)
    #expect(reply.subscriberCount == 0)  // the timeout disposed its source
    #expect(scheduler.scheduledCount == 0)
  }

  @Test("Testing: record(_:) keeps every event with its virtual time; one #expect compares the whole history")
  func testingRecordDebounce() {
    let scheduler = TestScheduler()
    let keystrokes = Subject<String, Never>()
    let searches = scheduler.record(keystrokes.debounce(.milliseconds(300), on: scheduler))

    keystrokes.sendNext("s")
    scheduler.advance(by: .milliseconds(100))
    keystrokes.sendNext("sw")
    scheduler.advance(by: .milliseconds(300))
    keystrokes.sendCompleted()
    #expect(searches.events == [.next(.milliseconds(400), "sw"), .completed(.milliseconds(400))])
    // The article's failure message prints the recorded history as its description does.
    #expect(
      "\(searches.events)" == #"[.next(.milliseconds(400), "sw"), .completed(.milliseconds(400))]"#)
  }

  @Test("Testing: a rate limit, recorded: the first value at once, then the latest of each interval at its end")
  func testingRecordThrottleLatest() {
    let scheduler = TestScheduler()
    let progress = Subject<Int, Never>()
    let shown = scheduler.record(progress.throttleLatest(.seconds(1), on: scheduler))

    for percent in [10, 20, 30] { progress.sendNext(percent) }
    scheduler.advance(by: .seconds(1))
    progress.sendNext(40)
    scheduler.advance(by: .seconds(1))
    #expect(shown.events == [.next(.zero, 10), .next(.seconds(1), 30), .next(.seconds(2), 40)])
  }

  @Test("Testing: a failure is recorded with its time; values gives the values alone")
  func testingRecordTimeout() {
    let scheduler = TestScheduler()
    let reply = Subject<String, Never>()
    let replies = scheduler.record(reply.timeout(.seconds(5), on: scheduler))

    scheduler.advance(by: .seconds(2))
    reply.sendNext("pong")
    scheduler.advance(by: .seconds(3))
    #expect(replies.events == [.next(.seconds(2), "pong"), .error(.seconds(5), TimeoutError())])
    #expect(replies.values == ["pong"])
  }

  @Test("Testing: of the work due at the same instant, plain work runs first, then dated work (RAC's order)")
  func testingSameInstant() {
    let scheduler = TestScheduler()
    scheduler.schedule(after: scheduler.now) { print("dated work, scheduled first") }
    scheduler.schedule { print("plain work, scheduled second") }
    scheduler.advance()
    // plain work, scheduled second
    // dated work, scheduled first
    #expect(console.lines == ["plain work, scheduled second", "dated work, scheduled first"])
  }

  @Test("Testing: step() runs the next block, step(_:) the next n; work a block schedules waits for a later step")
  func testingSteps() {
    let scheduler = TestScheduler()
    scheduler.schedule {
      print("first")
      scheduler.schedule { print("scheduled by first") }
    }
    scheduler.schedule(afterDelay: .seconds(1)) { print("one second on") }
    scheduler.step()
    // first
    scheduler.step(2)
    // scheduled by first
    // one second on
    #expect(console.lines == ["first", "scheduled by first", "one second on"])
    #expect(scheduler.now == Date(timeIntervalSinceReferenceDate: 1))
  }
}
