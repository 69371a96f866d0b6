import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("Debugging: names (RAC_DEBUG_SIGNAL_NAMES), logEvents, logNext, logError, logCompleted")
struct DebuggingTests {
  // MARK: Logging

  @Test("-logAll logs every event, named by the signal, before forwarding it")
  func logEvents() {
    let lines = Locked<[String]>([])
    let source = SyncSource<Int, TestError>([1, 2]).signal.named("numbers")
    source.logEvents(to: { lines.append($0) }).subscribeNext(
      { lines.append("received \($0)") }, error: { _ in }, completed: { lines.append("received completed") })
    #expect(
      lines.value == [
        "numbers next: 1", "received 1", "numbers next: 2", "received 2", "numbers completed", "received completed",
      ])
  }

  @Test("-logError logs the failure; a signal without a name is described by its type")
  func logError() {
    let lines = Locked<[String]>([])
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 3))).signal
    let recorder = EventRecorder(failing.logError(to: { lines.append($0) }))
    #expect(lines.value == ["Signal<Int, TestError> error: TestError(3)"])
    #expect(recorder.events == [.next(1), .error(TestError(code: 3))])
  }

  @Test("-logNext and -logCompleted log only their kind of event")
  func logNextAndCompleted() {
    let lines = Locked<[String]>([])
    let source = SyncSource<Int, TestError>([1]).signal.named("s")
    _ = EventRecorder(source.logNext(to: { lines.append($0) }))
    _ = EventRecorder(source.logCompleted(to: { lines.append($0) }))
    #expect(lines.value == ["s next: 1", "s completed"])
    let failing = SyncSource<Int, TestError>([], then: .error(TestError())).signal
    _ = EventRecorder(failing.logNext(to: { lines.append($0) }).logCompleted(to: { lines.append($0) }))
    #expect(lines.value == ["s next: 1", "s completed"])
  }

  @Test("logging keeps the logged signal's name and disposal reaches the source")
  func logNameAndDisposal() {
    let subject = Subject<Int, Never>()
    let logged = subject.named("clicks").logEvents(to: { _ in })
    #expect(logged.name == "clicks")
    let recorder = EventRecorder(logged)
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("by default, log lines go to standard error, as RAC's NSLog")
  nonisolated func logToStandardError() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.return(7).named("answer").logEvents().waitUntilCompleted(timeout: .seconds(30))
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.contains("answer next: 7\nanswer completed\n"))
  }

  // MARK: Names

  @Test("-setNameWithFormat: a given name is kept, and describes the signal")
  func givenName() {
    let signal = Signal<Int, Never>.never.named("ticks")
    #expect(signal.name == "ticks")
    #expect(signal.description == "ticks")
  }

  @Test(
    "without RAC_DEBUG_SIGNAL_NAMES, operators do not name their results",
    .enabled(if: ProcessInfo.processInfo.environment["RAC_DEBUG_SIGNAL_NAMES"] == nil))
  func noDerivedNames() {
    let derived = Signal<Int, Never>.never.named("ticks").map { $0 }.take(3)
    #expect(derived.name.isEmpty)
    #expect(derived.description == "Signal<Int, Never>")
  }

  @Test("with RAC_DEBUG_SIGNAL_NAMES set, operators name their results after their upstream, as RAC does")
  nonisolated func derivedNames() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      setenv("RAC_DEBUG_SIGNAL_NAMES", "1", 1)
      let ticks = Signal<Int, TestError>.never.named("ticks")
      let checks: [(String, String)] = [
        (ticks.map { $0 }.take(3).name, "[[ticks] map] take(3)"),
        (Signal<Int, Never>.never.filter { _ in true }.name, "[Signal<Int, Never>] filter"),
        (ticks.skip(2).replace(with: "x").name, "[[ticks] skip(2)] replace(with: x)"),
        (
          ticks.retry(upTo: 1).catch(to: Signal<Int, Never>.empty).name,
          "[[ticks] retry(upTo: 1)] catch(to: Signal<Int, Never>)"
        ),
        (ticks.collect().description, "[ticks] collect()"),
        (ticks.logEvents(to: { _ in }).name, "ticks"),
      ]
      for (name, expected) in checks where name != expected {
        FileHandle.standardError.write(Data("name \(name) is not \(expected)\n".utf8))
        exit(1)
      }
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(!output.contains("is not"), "\(output)")
  }
}
