import Foundation

@testable import AsyncSignals

// The guarantee 2 sweep's rows for the time operators and the hops, all on the fixture's `TestScheduler` (which the
// harness advances by a minute after the drive), except `deliverOnMainThread()`. Each row's first string is the name
// in the symbol graph (see Support/Guarantee2Sweep.swift).

extension SweepRow {
  static let timing: [SweepRow] = [
    .row("delay(_:on:file:line:)") { fixture in fixture.ints().delay(.seconds(1), on: fixture.scheduler) },
    .row("deliver(on:)") { fixture in fixture.ints().deliver(on: fixture.scheduler) },
    .row("deliverOnMainThread()", settle: .mainQueue) { fixture in fixture.ints().deliverOnMainThread() },
    .row("subscribe(on:)") { fixture in
      fixture.ints().subscribe(on: fixture.scheduler)
    } drive: { fixture in
      fixture.scheduler.advance()  // subscribes to the input
      fixture.fireInputs()
    },
    .row("throttle(_:on:file:line:)") { fixture in
      spacedOut(fixture).throttle(.seconds(1), on: fixture.scheduler)
    },
    .row("throttle(_:on:valuesPassing:file:line:)") { fixture in
      spacedOut(fixture).throttle(.seconds(1), on: fixture.scheduler, valuesPassing: { $0 != 2 })
    },
    .row("debounce(_:on:file:line:)") { fixture in
      spacedOut(fixture).debounce(.seconds(1), on: fixture.scheduler)
    },
    .row("throttleLatest(_:on:file:line:)") { fixture in
      fixture.ints().throttleLatest(.seconds(1), on: fixture.scheduler)
    },
    .row("throttleFirst(_:on:file:line:)") { fixture in
      spacedOut(fixture).throttleFirst(.seconds(1), on: fixture.scheduler)
    },
    .failingRow("timeout(_:on:raising:file:line:)") { fixture in
      fixture.failingInts().timeout(.seconds(10), on: fixture.scheduler, raising: TestError())
    },
    .failingRow("timeout(_:on:file:line:)", overload: "TimeoutError") { fixture in
      fixture.ints().timeout(.seconds(10), on: fixture.scheduler)
    },
    .failingRow("timeout(_:on:file:line:)", overload: "any Error") { fixture in
      fixture.input([1, 2, 3], then: Event<Int, any Error>.completed).timeout(.seconds(10), on: fixture.scheduler)
    },
    .row("buffer(time:count:on:file:line:)") { fixture in
      fixture.ints().buffer(time: .seconds(1), count: 2, on: fixture.scheduler)
    },
    .row("buffer(time:on:file:line:)") { fixture in
      spacedOut(fixture).buffer(time: .seconds(1), on: fixture.scheduler)
    },
    .row("static interval(_:on:leeway:file:line:)") { fixture in
      Signal<Date, Never>.interval(.seconds(1), on: fixture.scheduler)
    },
  ]
}

/// An input that sends 1 to 4 two virtual seconds apart, then completes, when the fixture fires.
private func spacedOut(_ fixture: SweepFixture) -> Signal<Int, Never> {
  let input = fixture.manualInput(Int.self, Never.self)
  let scheduler = fixture.scheduler
  fixture.onFire {
    for value in 1...4 {
      input.send(value)
      scheduler.advance(by: .seconds(2))
    }
    input.complete()
  }
  return input.signal
}
