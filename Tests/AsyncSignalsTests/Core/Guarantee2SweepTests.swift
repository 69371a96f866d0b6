import Testing

@testable import AsyncSignals

/// Guarantee 2 through the whole catalog: every public operator and factory that returns a signal (a row of
/// `Guarantee2SweepRows+*.swift`), subscribed in every public form, with its inputs sending while subscribed, on the
/// test's thread and on another thread. The first value's callback disposes the subscription; after that, nothing may
/// arrive — no value, no failure, no completion. The harness is `Support/Guarantee2Sweep*.swift`;
/// `Scripts/check-guarantee2-sweep.swift` fails when a public declaration returning a signal has no row.
@Suite("Guarantee 2 through the catalog: terminal means terminal")
struct Guarantee2SweepTests {
  static let rows: [SweepRow] = SweepRow.creation + SweepRow.singleInput + SweepRow.combining + SweepRow.timing

  static let valueRows = rows.filter { if case .values = $0.sends { true } else { false } }
  static let silentRows = rows.filter { if case .noValues = $0.sends { true } else { false } }

  @Test(
    "after the first value's callback disposes the subscription, nothing more arrives",
    arguments: SweepCase.all(valueRows))
  func nothingAfterDisposalInFirstValue(_ sweep: SweepCase) async {
    let entries = await sweep.row.run(sweep.form, sweep.source, SweepRecorder(.disposesAtFirstValue))
    #expect(entries.contains(.disposing), "no value arrived where its callback could dispose: \(entries)")
    if sweep.row.subscribing == .sendsNothing, let first = entries.first {
      // Nothing is sent before the disposable is known: the very first value is where it was disposed.
      #expect(
        entries.count >= 2 && entries[1] == .disposing && !first.isTerminal && first != .disposing,
        "the first value's callback did not dispose: \(entries)")
    }
    expectTerminalMeansTerminal(entries)
  }

  @Test(
    "a signal that sends no values, disposed before it ends, sends nothing",
    arguments: SweepCase.all(silentRows))
  func silentDisposedFirst(_ sweep: SweepCase) async {
    let entries = await sweep.row.run(sweep.form, sweep.source, SweepRecorder(.disposesAtOnce))
    #expect(entries == [.disposing], "\(entries)")
  }

  @Test(
    "a signal that sends no values delivers its terminal event once, and nothing after it",
    arguments: SweepCase.all(silentRows))
  func silentTerminalOnce(_ sweep: SweepCase) async {
    guard case .noValues(_, let ends) = sweep.row.sends else { return }
    let entries = await sweep.row.run(sweep.form, sweep.source, SweepRecorder(.keeps))
    if ends {
      #expect(entries.count == 1 && entries[0].isTerminal, "\(entries)")
    } else {
      #expect(entries.isEmpty, "\(entries)")
    }
  }

  @Test(
    "each row's signal sends what the sweep needs: at least two values (or the number its reason gives)",
    arguments: SweepControl.all(valueRows))
  func eachRowSendsValues(_ control: SweepControl) async {
    guard case .values(let minimum, _) = control.row.sends else { return }
    let entries = await control.row.run(.subscriber, control.source, SweepRecorder(.keeps))
    let values = entries.filter { if case .value = $0 { true } else { false } }
    #expect(values.count >= minimum, "\(entries)")
    expectTerminalMeansTerminal(entries)
  }
}
