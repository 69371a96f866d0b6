import Foundation
import Testing

import AsyncSignals  // not @testable: the location must be the caller's, as a user of the module sees it

/// Guarantee 9's precondition messages name the caller's file and line, not the library's: the public operators
/// that check an argument take `file: StaticString = #fileID, line: UInt = #line` and pass them on.
@Suite("Precondition messages report the caller's file and line")
struct PreconditionLocationTests {
  /// Whether `message` names this file (`#fileID`: module and file name) at one of `lines`. The operator's line
  /// or the line of the `#expect` around it: an exit test's body is moved into a function of its own, and the
  /// toolchain then reports either, depending on the version. Never the library's file.
  static func namesCaller(_ message: String, _ lines: ClosedRange<Int>) -> Bool {
    lines.contains { message.contains("AsyncSignalsTests/PreconditionLocationTests.swift:\($0): Fatal error") }
  }

  static func stderr(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  }

  @Test("take(-1) stops at the caller's line")
  func take() async {
    let line = #line
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.take(-1)
    }
    let message = Self.stderr(result)
    #expect(Self.namesCaller(message, (line + 1)...(line + 2)))
    #expect(message.contains("take(_:): count must not be negative"))
    #expect(!message.contains("Signal+Filtering.swift"))
  }

  @Test("throttle with a negative interval stops at the caller's line, through the shared implementation")
  func throttle() async {
    let line = #line
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.throttle(.seconds(-1), valuesPassing: { _ in true })
    }
    let message = Self.stderr(result)
    #expect(Self.namesCaller(message, (line + 1)...(line + 2)))
    #expect(message.contains("throttle(_:on:valuesPassing:): interval must not be negative"))
  }

  @Test("timeout with a negative interval stops at the caller's line")
  func timeout() async {
    let line = #line
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.timeout(.seconds(-1), on: TestScheduler())
    }
    let message = Self.stderr(result)
    #expect(Self.namesCaller(message, (line + 1)...(line + 2)))
    #expect(message.contains("timeout(_:on:): interval must not be negative"))
  }

  @Test("buffer(count: 0) and buffer(time:count:on:) with a count of 0 stop at the caller's line")
  func bufferCount() async {
    let line = #line
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.buffer(count: 0)
    }
    let message = Self.stderr(result)
    #expect(Self.namesCaller(message, (line + 1)...(line + 2)))
    #expect(message.contains("buffer(count:): count must be positive"))
    let timedLine = #line
    let timed = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.buffer(time: .seconds(1), count: 0, on: TestScheduler())
    }
    #expect(Self.namesCaller(Self.stderr(timed), (timedLine + 1)...(timedLine + 2)))
    #expect(!Self.stderr(timed).contains("Signal+BufferWithCount.swift"))
  }

  @Test("ReplaySubject(capacity: -1) stops at the caller's line")
  func replaySubject() async {
    let line = #line
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ReplaySubject<Int, Never>(capacity: -1)
    }
    let message = Self.stderr(result)
    #expect(Self.namesCaller(message, (line + 1)...(line + 2)))
    #expect(message.contains("ReplaySubject(capacity:): capacity must not be negative"))
  }

  @Test("throttleLatest, throttleFirst and debounce with a negative interval stop at the caller's line, by name")
  func rateLimits() async {
    let latestLine = #line
    let latest = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.throttleLatest(.seconds(-1), on: TestScheduler())
    }
    #expect(Self.namesCaller(Self.stderr(latest), (latestLine + 1)...(latestLine + 2)))
    #expect(Self.stderr(latest).contains("throttleLatest(_:on:): interval must not be negative"))
    let first = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.throttleFirst(.seconds(1), on: ImmediateScheduler.shared)
    }
    #expect(Self.stderr(first).contains("throttleFirst(_:on:): scheduler must not be the immediate scheduler"))
    let debounced = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.debounce(.seconds(-1))
    }
    #expect(Self.stderr(debounced).contains("debounce(_:on:): interval must not be negative"))
  }

  @Test("share(replay: -1) stops at the caller's line")
  func share() async {
    let line = #line
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.share(replay: -1)
    }
    let message = Self.stderr(result)
    #expect(Self.namesCaller(message, (line + 1)...(line + 2)))
    #expect(message.contains("share(replay:): replay must not be negative"))
  }
}
