import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

// The rows and cases of the guarantee 2 sweep, and how one is run (see Guarantee2Sweep.swift).

/// One row of the sweep: a public operator or factory, a signal built with it that sends at least two values
/// (or the reason it cannot), and how its inputs are driven.
struct SweepRow: Sendable, CustomTestStringConvertible {
  /// What the row's signal does during the call that subscribes to it.
  enum Subscribing: Sendable {
    /// Nothing is sent before the subscription call has returned.
    case sendsNothing
    /// Some values are sent during the call (`startWith`, a behaviour subject): with `subscribeNext`, whose
    /// disposable is not known until it returns, the first value sent after it is where the callback disposes.
    case sendsSomeValues
    /// Everything may be sent before the call returns: during it (`from`, `return`), or from a queue the signal
    /// starts at once (`MemoizedSequence.signal()`). With `subscribeNext`, whose disposable the callback needs, such a
    /// signal is subscribed from a plain thread instead, which defers its start to the background scheduler
    /// (guarantee 5), held until the disposable has been kept: only those other-thread cases are run.
    case sendsEverything
  }

  /// What the row's signal sends.
  enum Sends: Sendable {
    /// At least `minimum` values once driven (2, unless `reason` says why it cannot).
    case values(minimum: Int, reason: String?)
    /// No value ever (`reason` says why): checked on the terminal path instead. `ends`: whether the drive makes it
    /// terminate.
    case noValues(reason: String, ends: Bool)
  }

  /// Where the last sends happen, when the drive's own thread does not make them.
  enum Settle: Sendable {
    case none
    /// Delivered on the main queue (`deliverOnMainThread()`): one turn of it after the drive.
    case mainQueue
    /// Sent from a serial queue the signal makes for itself: the control run waits for the terminal event, the
    /// sweep for two turns of that queue after the first value (the step after its callback has then run).
    case ownQueue
  }

  /// The name as it appears in the symbol graph: `takeLast(_:file:line:)`; `static …` for a static member of
  /// `Signal`, `Type.member` for a member of another type.
  let name: String
  /// For a name with several overloads: a piece of the declaration that tells this one apart.
  let overload: String?
  let sends: Sends
  let canFail: Bool
  let subscribing: Subscribing
  let settle: Settle
  /// Builds the row's signal on the fixture and subscribes the recorder in the form given.
  let subscribe: @Sendable (SweepFixture, SweepForm, SweepRecorder) -> Void
  /// Makes the signal send: by default, fires the fixture's inputs. The harness then advances the fixture's
  /// scheduler by a minute.
  let drive: @Sendable (SweepFixture) -> Void

  var testDescription: String { overload.map { "\(name) [\($0)]" } ?? name }

  /// The forms this row can be subscribed in, and the sources it can be driven from, for the disposal sweep.
  func runs(_ form: SweepForm, _ source: SweepSource) -> Bool {
    if form == .next, canFail { return false }  // subscribeNext(_:) does not compile for a signal that can fail
    if form == .next {
      // It observes values alone: after the one value of a row that sends one, or none, nothing could show.
      if case .noValues = sends { return false }
      if case .values(let minimum, _) = sends, minimum < 2 { return false }
    }
    if form != .subscriber {
      if source == .atSubscription { return false }  // the callback cannot have the disposable yet
      if subscribing == .sendsEverything, source == .testThread { return false }
    }
    return true
  }
}

extension SweepRow {
  /// A row whose signal cannot fail: every subscription form applies.
  static func row<Value: Sendable>(
    _ name: String, overload: String? = nil, values minimum: Int = 2, because reason: String? = nil,
    subscribing: Subscribing = .sendsNothing, settle: Settle = .none,
    _ build: @escaping @Sendable (SweepFixture) -> Signal<Value, Never>,
    drive: @escaping @Sendable (SweepFixture) -> Void = { $0.fireInputs() }
  ) -> SweepRow {
    SweepRow(
      name: name, overload: overload, sends: .values(minimum: minimum, reason: reason), canFail: false,
      subscribing: subscribing, settle: settle,
      subscribe: { fixture, form, recorder in build(fixture).subscribe(form, recorder) }, drive: drive)
  }

  /// A row whose signal can fail: `subscribeNext(_:)` does not apply.
  static func failingRow<Value: Sendable, Failure: Error>(
    _ name: String, overload: String? = nil, values minimum: Int = 2, because reason: String? = nil,
    subscribing: Subscribing = .sendsNothing, settle: Settle = .none,
    _ build: @escaping @Sendable (SweepFixture) -> Signal<Value, Failure>,
    drive: @escaping @Sendable (SweepFixture) -> Void = { $0.fireInputs() }
  ) -> SweepRow {
    SweepRow(
      name: name, overload: overload, sends: .values(minimum: minimum, reason: reason), canFail: true,
      subscribing: subscribing, settle: settle,
      subscribe: { fixture, form, recorder in build(fixture).subscribe(form, recorder) }, drive: drive)
  }

  /// A row whose signal never sends a value, for the reason given: checked on the terminal path.
  static func silentRow<Value: Sendable, Failure: Error>(
    _ name: String, overload: String? = nil, because reason: String, ends: Bool = true,
    subscribing: Subscribing = .sendsNothing,
    _ build: @escaping @Sendable (SweepFixture) -> Signal<Value, Failure>,
    drive: @escaping @Sendable (SweepFixture) -> Void = { $0.fireInputs() }
  ) -> SweepRow {
    SweepRow(
      name: name, overload: overload, sends: .noValues(reason: reason, ends: ends),
      canFail: ObjectIdentifier(Failure.self) != ObjectIdentifier(Never.self),
      subscribing: subscribing, settle: .none,
      subscribe: { fixture, form, recorder in build(fixture).subscribe(form, recorder) }, drive: drive)
  }

  /// Builds the signal, subscribes `recorder` in `form`, drives the sources from `source`, waits until they have
  /// finished, and returns what the subscription received.
  func run(_ form: SweepForm, _ source: SweepSource, _ recorder: SweepRecorder) async -> [SweepEntry] {
    let fixture = SweepFixture(sendsWhileSubscribing: source == .atSubscription)
    if subscribing == .sendsEverything, source == .otherThread {
      // From a plain thread with the background scheduler held, the signal's sending is deferred to it (guarantee
      // 5) until the disposable has been kept; then one turn of it, which runs after that sending.
      let subscribe = self.subscribe
      await onOwnThread {
        let hold = BackgroundHold()
        subscribe(fixture, form, recorder)
        hold.release()
      }
      await withCheckedContinuation { continuation in
        _ = QueueScheduler.background.schedule { continuation.resume() }
      }
    } else {
      subscribe(fixture, form, recorder)
    }
    let drive = self.drive
    let driveAndAdvance: @Sendable () -> Void = {
      drive(fixture)
      fixture.scheduler.advance(by: .seconds(60))
    }
    switch source {
    case .atSubscription, .testThread:
      driveAndAdvance()
    case .otherThread:
      let sender = QueueScheduler(name: "Guarantee2Sweep.sender")
      await withCheckedContinuation { continuation in
        _ = sender.schedule {
          driveAndAdvance()
          continuation.resume()
        }
      }
    }
    switch settle {
    case .none: break
    case .mainQueue:
      await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    case .ownQueue:
      if recorder.mode == .keeps { await recorder.terminal() } else { await recorder.twoTurnsOfFirstValueScheduler() }
    }
    return recorder.entries
  }
}

/// One case of the disposal sweep: a row, a subscription form and a source.
struct SweepCase: Sendable, CustomTestStringConvertible {
  let row: SweepRow
  let form: SweepForm
  let source: SweepSource

  var testDescription: String { "\(row.testDescription) · \(form.rawValue) · \(source.rawValue)" }

  /// Every case the rows can run (see `SweepRow.runs`).
  static func all(_ rows: [SweepRow]) -> [SweepCase] {
    rows.flatMap { row in
      SweepForm.allCases.flatMap { form in
        SweepSource.allCases.compactMap { source in
          row.runs(form, source) ? SweepCase(row: row, form: form, source: source) : nil
        }
      }
    }
  }
}

/// One control run: a row driven from a source, recorded without disposing.
struct SweepControl: Sendable, CustomTestStringConvertible {
  let row: SweepRow
  let source: SweepSource

  var testDescription: String { "\(row.testDescription) · \(source.rawValue)" }

  static func all(_ rows: [SweepRow]) -> [SweepControl] {
    rows.flatMap { row in SweepSource.allCases.map { SweepControl(row: row, source: $0) } }
  }
}

/// The checks of guarantee 2 on what a subscription received: nothing after the disposal, nothing after a terminal
/// event, at most one terminal event. Records an issue for each violation.
func expectTerminalMeansTerminal(_ entries: [SweepEntry], sourceLocation: SourceLocation = #_sourceLocation) {
  if let disposal = entries.firstIndex(of: .disposing) {
    let after = entries[(disposal + 1)...]
    #expect(
      after.isEmpty, "arrived after the disposal: \(Array(after)); all: \(entries)", sourceLocation: sourceLocation)
  }
  let events = entries.filter { $0 != .disposing }
  if let terminal = events.firstIndex(where: \.isTerminal) {
    let after = events[(terminal + 1)...]
    #expect(after.isEmpty, "arrived after \(events[terminal]): \(Array(after))", sourceLocation: sourceLocation)
  }
}
