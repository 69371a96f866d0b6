import AsyncSignals  // not @testable: only what the Testing article shows a user
import Foundation
import Testing

// Tests written from the Testing article's "Recording a history" alone, as a new user would write them for their own
// signals: `scheduler.record(signal)`, then one `#expect` on `events`, built with `.next`, `.error` and `.completed`.

/// A user's own pipeline: what a search field sends to the server.
private func searchQueries(_ typed: Signal<String, Never>, on scheduler: any Scheduler) -> Signal<String, Never> {
  typed
    .map { $0.trimmingCharacters(in: .whitespaces) }
    .filter { !$0.isEmpty }
    .debounce(.milliseconds(300), on: scheduler)
    .distinctUntilChanged()
}

private enum UploadError: Error, Equatable {
  case rejected(String)
}

@MainActor
@Suite("The recorder, used from the Testing article alone")
struct RecorderFromTheArticleTests {
  @Test("a search field: trimmed, debounced, repeats and blanks dropped")
  func searchField() {
    let scheduler = TestScheduler()
    let typed = Subject<String, Never>()
    let queries = scheduler.record(searchQueries(typed, on: scheduler))

    typed.sendNext("sw")
    scheduler.advance(by: .milliseconds(100))
    typed.sendNext("swift ")
    scheduler.advance(by: .milliseconds(300))  // "swift" has been the latest for 300 ms
    typed.sendNext("swift")  // the same query once trimmed: not sent again
    scheduler.advance(by: .milliseconds(300))
    typed.sendNext("   ")  // blank: never sent
    scheduler.advance(by: .seconds(1))
    typed.sendNext("vapor")
    typed.sendCompleted()  // completion sends the waiting query first, at once

    #expect(
      queries.events == [
        .next(.milliseconds(400), "swift"),
        .next(.milliseconds(1_700), "vapor"),
        .completed(.milliseconds(1_700)),
      ])
  }

  @Test("an upload that fails: the failure is an event, with its time")
  func failedUpload() {
    let scheduler = TestScheduler()
    let progress = Subject<Int, UploadError>()
    let shown = scheduler.record(progress.throttleLatest(.milliseconds(500), on: scheduler))

    progress.sendNext(10)
    progress.sendNext(20)
    scheduler.advance(by: .milliseconds(500))
    progress.sendNext(30)
    scheduler.advance(by: .milliseconds(200))
    progress.sendError(.rejected("too large"))  // 30, kept for the interval's end, goes with the failure

    #expect(
      shown.events == [
        .next(.zero, 10), .next(.milliseconds(500), 20), .error(.milliseconds(700), .rejected("too large")),
      ])
    #expect(shown.values == [10, 20])
  }

  @Test("a request that times out, and one that answers in time")
  func requests() {
    let scheduler = TestScheduler()
    let slow = Subject<String, Never>()
    let fast = Subject<String, Never>()
    let slowReplies = scheduler.record(slow.timeout(.seconds(5), on: scheduler))
    let fastReplies = scheduler.record(fast.timeout(.seconds(5), on: scheduler))

    scheduler.advance(by: .seconds(1))
    fast.sendNext("pong")
    fast.sendCompleted()
    scheduler.advance(by: .seconds(4))

    #expect(fastReplies.events == [.next(.seconds(1), "pong"), .completed(.seconds(1))])
    #expect(slowReplies.events == [.error(.seconds(5), TimeoutError())])
  }

  @Test("disposing the recorder ends the subscription; what it recorded stays")
  func stoppingEarly() {
    let scheduler = TestScheduler()
    let ticks = scheduler.record(Signal<Date, Never>.interval(.seconds(1), on: scheduler).map { _ in "tick" })

    scheduler.advance(by: .seconds(2))
    ticks.dispose()
    scheduler.advance(by: .seconds(2))

    #expect(ticks.events == [.next(.seconds(1), "tick"), .next(.seconds(2), "tick")])
    #expect(scheduler.scheduledCount == 0)
  }
}
