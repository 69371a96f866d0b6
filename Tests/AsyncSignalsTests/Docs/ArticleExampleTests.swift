import AsyncSignals
import Foundation
import Testing

// The code samples of Docs.docc, one test each, copied line for line (Scripts/check-doc-samples.swift checks
// it) and run with the output the article states. The samples' `print` writes to `DocConsole.shared`.
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

/// The samples of the AsyncSignals catalog, by article. On the main actor, as the articles assume: there a
/// subscription starts at once. Serialized, because the samples share one console.
@MainActor
@Suite("Article examples", .serialized)
struct ArticleExampleTests {
  let console = DocConsole.shared

  init() {
    console.reset()
  }

  // MARK: AsyncSignals.md (the landing page)

  @Test("AsyncSignals.md: the countdown prints 3…, 2…, 1…, liftoff, then cleans up")
  func landingPageCountdown() {
    let countdown = Signal<Int, Never>.create { subscriber in
      for value in (1...3).reversed() { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return ActionDisposable { print("cleaned up") }
    }
    countdown.map { "\($0)…" }.subscribeNext({ print($0) }, completed: { print("liftoff") })
    // 3…, 2…, 1…, liftoff, cleaned up
    #expect(console.lines == ["3…", "2…", "1…", "liftoff", "cleaned up"])
  }

  // MARK: GettingStarted.md

  /// The countdown of "Create a signal".
  static func countdown() -> Signal<Int, Never> {
    let countdown = Signal<Int, Never>.create { subscriber in
      for value in [3, 2, 1] { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return ActionDisposable { print("cleaned up") }
    }
    return countdown
  }

  @Test("GettingStarted: creating the countdown runs nothing yet")
  func gettingStartedCreate() {
    _ = Self.countdown()
    #expect(console.lines.isEmpty)
  }

  @Test("GettingStarted: each subscription runs the countdown again, and cleans up after the last callback")
  func gettingStartedSubscribe() {
    let countdown = Self.countdown()
    countdown.subscribeNext({ print($0) }, completed: { print("liftoff") })
    // 3, 2, 1, liftoff, cleaned up
    countdown.subscribeNext { print("again", $0) }
    // again 3, again 2, again 1, cleaned up
    #expect(
      console.lines == [
        "3", "2", "1", "liftoff", "cleaned up", "again 3", "again 2", "again 1", "cleaned up",
      ])
  }

  @Test("GettingStarted: a typed failure ends the signal; the values after it are never parsed")
  func gettingStartedTypedFailure() {
    struct NotANumber: Error { let text: String }

    let texts = Signal<String, NotANumber>.create { subscriber in
      for text in ["1", "2", "three", "4"] { subscriber.sendNext(text) }
      subscriber.sendCompleted()
      return nil
    }
    let numbers = texts.tryMap { (text) throws(NotANumber) -> Int in
      guard let number = Int(text) else { throw NotANumber(text: text) }
      return number
    }
    numbers.subscribeNext({ print($0) }, error: { print("not a number:", $0.text) }, completed: { print("done") })
    // 1, 2, not a number: three
    #expect(console.lines == ["1", "2", "not a number: three"])
  }

  @Test("GettingStarted: filter, map and take(2) on a subject's clicks")
  func gettingStartedOperators() {
    let clicks = Subject<Int, Never>()
    clicks
      .filter { $0.isMultiple(of: 2) }
      .map { "click \($0)" }
      .take(2)
      .subscribeNext({ print($0) }, completed: { print("enough") })
    for click in 1...6 { clicks.sendNext(click) }
    // click 2, click 4, enough
    #expect(console.lines == ["click 2", "click 4", "enough"])
    #expect(clicks.subscriberCount == 0)
  }

  @Test("GettingStarted: disposing a reading stops the sensor at once")
  func gettingStartedDispose() {
    let sensor = Signal<Double, Never>.create { subscriber in
      subscriber.sendNext(21.5)
      return ActionDisposable { print("sensor stopped") }
    }
    let reading = sensor.subscribeNext { print("\($0) °C") }
    // 21.5 °C
    reading.dispose()
    // sensor stopped
    #expect(console.lines == ["21.5 °C", "sensor stopped"])
  }
}
