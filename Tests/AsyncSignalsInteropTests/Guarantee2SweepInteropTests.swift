import AsyncSignals
import Foundation
import Observation
import Testing

@testable import AsyncSignalsInterop

/// Guarantee 2 through this module's public factories that return a signal: the counterpart of AsyncSignalsTests'
/// Core/Guarantee2SweepTests.swift. Each row is subscribed in every public form; the first value's callback disposes
/// the subscription, and nothing may arrive after — no value, no failure, no completion. The work of these factories
/// sends from a task of its own, from a plain thread it hands its values to, or on the main actor; the test waits
/// until it has finished sending (`TestScheduler.settle()`, or a gate that opens when the sender lets go of its work),
/// never by sleeping. `Scripts/check-guarantee2-sweep.swift` fails when a public declaration returning a signal has
/// no row (the first string of each `.row(`, and its `overload:`).
@MainActor
@Suite("Guarantee 2 through the Interop factories: terminal means terminal")
struct Guarantee2SweepInteropTests {
  nonisolated static let rows: [InteropSweepRow] = [
    .row("static async(_:)", overload: "operation", values: 1, because: sendsOneValue, sources: [.task]) { fixture in
      let ready = fixture.ready
      return Signal<Int, Never>.async { () async -> Int in
        await ready.wait()
        return 1
      }
    },
    .row("static async(_:)", overload: "body", sources: [.task, .plainThread]) { fixture in
      let (ready, source) = (fixture.ready, fixture.source)
      return Signal<Int, Never>.async { (subscriber: AsyncSubscriber<Int, Never>) async in
        await ready.wait()
        await sendNumbers(to: subscriber, from: source)
      }
    },
    .row("static async(isolatedTo:_:)", overload: "operation", values: 1, because: sendsOneValue, sources: [.task]) {
      fixture in
      let ready = fixture.ready
      return Signal<Int, Never>.async(isolatedTo: SweepActor()) { (_: isolated SweepActor) async -> Int in
        await ready.wait()
        return 1
      }
    },
    .row("static async(isolatedTo:_:)", overload: "body", sources: [.task, .plainThread]) { fixture in
      let (ready, source) = (fixture.ready, fixture.source)
      return Signal<Int, Never>.async(isolatedTo: SweepActor()) {
        (_: isolated SweepActor, subscriber: AsyncSubscriber<Int, Never>) async in
        await ready.wait()
        await sendNumbers(to: subscriber, from: source)
      }
    },
    .row("AsyncSequence.signal", sources: [.task, .plainThread]) { fixture in
      SweepSequence(fixture).signal
    } drive: { fixture, _ in
      await senderLetGo(fixture)
    },
    .row("AsyncSequence.signal(isolatedTo:)", sources: [.task, .plainThread]) { fixture in
      SweepSequence(fixture).signal(isolatedTo: SweepActor())
    } drive: { fixture, _ in
      await senderLetGo(fixture)
    },
    .row("static observing(_:_:)", sources: [.mainActor]) { fixture in
      Signal.observing(fixture.person, \.first)
    } drive: { fixture, _ in
      try await renameTwice(fixture)
    },
    .row("static observing(_:reading:)", sources: [.mainActor]) { fixture in
      Signal.observing(fixture.person, reading: { $0.first })
    } drive: { fixture, _ in
      try await renameTwice(fixture)
    },
    .row("static observing(_:)", sources: [.mainActor]) { fixture in
      // Its values come from a task the test scheduler does not track: the end of its sending is the release of the
      // expression, which that task holds (guarantee 8).
      let person = fixture.person
      let marker = ReleaseMarker(fixture.senderDone)
      return Signal.observing {
        _ = marker
        return person.first
      }
    } drive: { fixture, recorder in
      await recorder.values(1)
      fixture.person.first = "Grace"
      if recorder.disposesAtFirstValue {
        fixture.person.first = "Anita"
        await senderLetGo(fixture)
      } else {
        await recorder.values(2)
      }
    },
  ]

  /// Every row in every form and from each of its sources, except `subscribeNext(_:)` for a row that sends one value:
  /// that form observes values alone, so nothing could show after it.
  nonisolated static let cases: [InteropSweepCase] = rows.flatMap { row in
    SweepForm.allCases.filter { $0 != .next || row.minimum >= 2 }.flatMap { form in
      row.sources.map { InteropSweepCase(row: row, form: form, source: $0) }
    }
  }

  @Test(
    "after the first value's callback disposes the subscription, nothing more arrives", .timeLimit(.minutes(10)),
    arguments: cases)
  func nothingAfterDisposalInFirstValue(_ sweep: InteropSweepCase) async throws {
    let entries = try await sweep.row.run(sweep.form, sweep.source, SweepRecorder(disposesAtFirstValue: true))
    #expect(
      entries.count >= 2 && entries[0].isValue && entries[1] == .disposing,
      "the first value's callback did not dispose: \(entries)")
    expectTerminalMeansTerminal(entries)
  }

  @Test(
    "each row's signal sends what the sweep needs: at least two values (or the number its reason gives)",
    .timeLimit(.minutes(10)), arguments: cases.filter { $0.form == .subscriber })
  func eachRowSendsValues(_ control: InteropSweepCase) async throws {
    let entries = try await control.row.run(.subscriber, control.source, SweepRecorder(disposesAtFirstValue: false))
    #expect(entries.count(where: \.isValue) >= control.row.minimum, "\(entries)")
    expectTerminalMeansTerminal(entries)
  }
}

/// The reason of a row whose signal sends one value and completes.
let sendsOneValue = "sends one value, then completes: checked that the completion does not follow"

/// Where an Interop row's values are sent from.
enum InteropSource: String, Sendable {
  /// The factory's own task sends them back to back.
  case task = "sent from its task"
  /// The work hands them to a plain thread, which sends them; the work waits for it.
  case plainThread = "sent from a plain thread"
  /// The main actor sends them, one job after a change.
  case mainActor = "sent on the main actor"
}

/// What a row's run works with.
@MainActor
final class InteropFixture: Sendable {
  let source: InteropSource
  /// The scheduler whose block subscribes, so that the async work started then is tracked by its `settle()`.
  let scheduler = TestScheduler()
  /// Opened once the subscription's disposable has been kept: the work waits for it before it sends.
  let ready = Gate()
  /// Opened when the sender has let go of its work, for work the scheduler does not track.
  let senderDone = Gate()
  /// The model of the observation rows.
  let person = Person()

  init(_ source: InteropSource) {
    self.source = source
  }
}

/// One row of the Interop sweep: a public factory, a signal built with it that sends at least two values (or the
/// reason it cannot), and how the test waits until it has sent them.
struct InteropSweepRow: Sendable, CustomTestStringConvertible {
  /// The name as it appears in the symbol graph; `static …` for a static member of `Signal`, `Type.member` for a
  /// member of another type.
  let name: String
  /// For a name with several overloads: a piece of the declaration that tells this one apart.
  let overload: String?
  let minimum: Int
  let reason: String?
  let sources: [InteropSource]
  /// Builds the signal and subscribes the recorder in the form given.
  let subscribe: @MainActor @Sendable (InteropFixture, SweepForm, SweepRecorder) -> Void
  /// Returns once the signal has sent everything it sends.
  let drive: @MainActor @Sendable (InteropFixture, SweepRecorder) async throws -> Void

  var testDescription: String { overload.map { "\(name) [\($0)]" } ?? name }

  static func row<Value: Sendable>(
    _ name: String, overload: String? = nil, values minimum: Int = 2, because reason: String? = nil,
    sources: [InteropSource], _ build: @escaping @MainActor @Sendable (InteropFixture) -> Signal<Value, Never>,
    drive: @escaping @MainActor @Sendable (InteropFixture, SweepRecorder) async throws -> Void = { fixture, _ in
      try await fixture.scheduler.settle()
    }
  ) -> InteropSweepRow {
    InteropSweepRow(
      name: name, overload: overload, minimum: minimum, reason: reason, sources: sources,
      subscribe: { fixture, form, recorder in build(fixture).subscribe(form, recorder) }, drive: drive)
  }

  /// Subscribes in one of the test scheduler's blocks, lets the work send once the disposable is kept, and returns
  /// what the subscription received once the sender has finished.
  @MainActor
  func run(_ form: SweepForm, _ source: InteropSource, _ recorder: SweepRecorder) async throws -> [SweepEntry] {
    let fixture = InteropFixture(source)
    let subscribe = self.subscribe
    _ = fixture.scheduler.schedule {
      // `advance()` below runs this block on the main actor, where the test runs.
      MainActor.assumeIsolated { subscribe(fixture, form, recorder) }
    }
    fixture.scheduler.advance()
    fixture.ready.open()
    try await drive(fixture, recorder)
    return recorder.entries
  }
}

/// One case of the Interop sweep: a row, a subscription form and a source.
struct InteropSweepCase: Sendable, CustomTestStringConvertible {
  let row: InteropSweepRow
  let form: SweepForm
  let source: InteropSource

  var testDescription: String { "\(row.testDescription) · \(form.rawValue) · \(source.rawValue)" }
}

/// An actor for the `isolatedTo:` factories.
actor SweepActor {}

/// Sends 1 to 5 into `subscriber`: from the calling task with `send(_:)`, or from a plain thread with `sendNext(_:)`,
/// waiting until that thread has finished.
private func sendNumbers(to subscriber: AsyncSubscriber<Int, Never>, from source: InteropSource) async {
  switch source {
  case .plainThread:
    await plainThread { for value in 1...5 { subscriber.sendNext(value) } }.wait()
  case .task, .mainActor:
    for value in 1...5 { await subscriber.send(value) }
  }
}

/// Renames the fixture's person twice, each change in a main-actor job of its own; returns once every value the
/// observation sends has been sent.
@MainActor
private func renameTwice(_ fixture: InteropFixture) async throws {
  try await fixture.scheduler.settle()  // the first value
  for name in ["Grace", "Anita"] {
    fixture.person.first = name
    try await fixture.scheduler.settle()
  }
}

/// Returns once the fixture's `senderDone` has opened; records an issue instead if it has not within the watchdog's
/// time, so that a sender that never lets go fails the case instead of hanging the run.
@MainActor
private func senderLetGo(_ fixture: InteropFixture, sourceLocation: SourceLocation = #_sourceLocation) async {
  let senderDone = fixture.senderDone
  let finished = await finishes(within: watchdogSeconds) { await senderDone.wait() }
  #expect(finished, "the sender still holds its work", sourceLocation: sourceLocation)
}

/// How long `senderLetGo` waits before it gives up (see `finishes(within:_:)`).
let watchdogSeconds: Double = 300

/// Opens a gate when it is released: the end of whatever held it.
final class ReleaseMarker: Sendable {
  private let gate: Gate

  init(_ gate: Gate) {
    self.gate = gate
  }

  deinit { gate.open() }
}

/// An async sequence of 1 to 5 whose first element waits for the fixture's `ready` gate; its elements are there at
/// once (`.task`), or a plain thread started by that first call makes them (`.plainThread`). Its iterator opens the
/// fixture's `senderDone` when released, which the signal's task does once it has sent everything it sends.
struct SweepSequence: AsyncSequence, Sendable {
  typealias Element = Int
  typealias Failure = Never

  let base: AsyncStream<Int>
  /// Makes the elements, if they are not there yet: called once, when the first element is asked for.
  let produce: @Sendable () -> Void
  let ready: Gate
  let senderDone: Gate

  @MainActor
  init(_ fixture: InteropFixture) {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let yieldAll: @Sendable () -> Void = {
      for value in 1...5 { continuation.yield(value) }
      continuation.finish()
    }
    switch fixture.source {
    case .plainThread:
      produce = { Thread { yieldAll() }.start() }
    case .task, .mainActor:
      yieldAll()
      produce = {}
    }
    base = stream
    ready = fixture.ready
    senderDone = fixture.senderDone
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), sequence: self, marker: ReleaseMarker(senderDone))
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<Int>.Iterator
    let sequence: SweepSequence
    let marker: ReleaseMarker
    var started = false

    mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
      if !started {
        started = true
        await sequence.ready.wait()
        sequence.produce()
      }
      return await base.next(isolation: actor)
    }

    mutating func next() async -> Int? {
      await next(isolation: nil)
    }
  }
}
