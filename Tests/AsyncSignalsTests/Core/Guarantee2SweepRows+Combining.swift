@testable import AsyncSignals

// The guarantee 2 sweep's rows for the operators with several inputs: bind and flattening, merge, concat, zip,
// combineLatest, the Boolean combinations, switching, sample and takeUntil. Every input is driven so that values
// flow; inner signals are either inputs fired after the outer one (`lateInput`) or synchronous (`from`), which send
// everything while the operator subscribes to them. Each row's first string is the name in the symbol graph (see
// Support/Guarantee2Sweep.swift).

extension SweepRow {
  static let combining: [SweepRow] = flattening + zipping + switching

  static let flattening: [SweepRow] = [
    .row("bind(_:)") { fixture in
      fixture.ints().bind { { value, _ in .from([value, value * 10]) } }
    },
    .row("flattenMap(_:)") { fixture in fixture.ints().flattenMap { .from([$0, $0 * 10]) } },
    .row("flattenMap(maxConcurrent:file:line:_:)") { fixture in
      fixture.ints().flattenMap(maxConcurrent: 1) { .from([$0, $0 * 10]) }
    },
    .row("flatten()") { fixture in
      fixture.input([fixture.lateInput([1, 2]), fixture.lateInput([3, 4])] as [Signal<Int, Never>]).flatten()
    },
    .row("flatten(maxConcurrent:file:line:)") { fixture in
      fixture.input([fixture.lateInput([1, 2]), fixture.lateInput([3, 4])] as [Signal<Int, Never>])
        .flatten(maxConcurrent: 1)
    },
    .row("merge(_:)") { fixture in fixture.ints([1, 2]).merge(fixture.ints([3, 4])) },
    .row("static merge(_:)") { fixture in Signal.merge([fixture.ints([1, 2]), fixture.ints([3, 4])]) },
    // The first signal completes at once, so the values come from the second, subscribed by the operator.
    .row("concat(_:)") { fixture in fixture.ints([]).concat(.from([1, 2, 3])) },
    .row("static concat(_:)") { fixture in Signal.concat([fixture.ints([]), .from([1, 2, 3])]) },
    .row("concat()") { fixture in
      fixture.input([Signal<Int, Never>.from([1, 2]), .from([3, 4])]).concat()
    },
    .row("then(_:)") { fixture in fixture.ints().then { .from([10, 20, 30]) } },
  ]

  static let zipping: [SweepRow] = [
    .row("zip(with:)") { fixture in fixture.ints().zip(with: fixture.ints()) },
    .row("static zip(_:_:)") { fixture in Signal.zip(fixture.ints(), fixture.ints()) },
    .row("static zip(_:_:_:)") { fixture in Signal.zip(fixture.ints(), fixture.ints(), fixture.ints()) },
    .row("static zip(_:_:_:_:)") { fixture in
      Signal.zip(fixture.ints(), fixture.ints(), fixture.ints(), fixture.ints())
    },
    .row("static zip(_:_:_:_:_:)") { fixture in
      Signal.zip(fixture.ints(), fixture.ints(), fixture.ints(), fixture.ints(), fixture.ints())
    },
    .row("static zip(_:_:_:_:_:_:)") { fixture in
      Signal.zip(fixture.ints(), fixture.ints(), fixture.ints(), fixture.ints(), fixture.ints(), fixture.ints())
    },
    .row("static zip(_:)") { fixture in Signal.zip([fixture.ints(), fixture.ints(), fixture.ints()]) },
    .row("combineLatest(with:)") { fixture in fixture.ints([1]).combineLatest(with: fixture.ints()) },
    .row("static combineLatest(_:_:)") { fixture in Signal.combineLatest(fixture.ints([1]), fixture.ints()) },
    .row("static combineLatest(_:_:_:)") { fixture in
      Signal.combineLatest(fixture.ints([1]), fixture.ints([1]), fixture.ints())
    },
    .row("static combineLatest(_:_:_:_:)") { fixture in
      Signal.combineLatest(fixture.ints([1]), fixture.ints([1]), fixture.ints([1]), fixture.ints())
    },
    .row("static combineLatest(_:_:_:_:_:)") { fixture in
      Signal.combineLatest(fixture.ints([1]), fixture.ints([1]), fixture.ints([1]), fixture.ints([1]), fixture.ints())
    },
    .row("static combineLatest(_:_:_:_:_:_:)") { fixture in
      Signal.combineLatest(
        fixture.ints([1]), fixture.ints([1]), fixture.ints([1]), fixture.ints([1]), fixture.ints([1]), fixture.ints())
    },
    .row("static combineLatest(_:)") { fixture in Signal.combineLatest([fixture.ints([1]), fixture.ints()]) },
    .row("static and(_:)") { fixture in
      Signal.and([fixture.bools([true]), fixture.bools([true, false, true])])
    },
    .row("static or(_:)") { fixture in
      Signal.or([fixture.bools([false]), fixture.bools([true, false, true])])
    },
  ]

  static let switching: [SweepRow] = [
    .row("switchToLatest()") { fixture in
      fixture.input([Signal<Int, Never>.from([1, 2]), .from([3, 4])]).switchToLatest()
    },
    .row("flattenMapLatest(_:)") { fixture in fixture.ints().flattenMapLatest { .from([$0, $0 * 10]) } },
    .row("static switch(_:cases:default:)") { fixture in
      Signal.switch(fixture.input(["a", "b"]), cases: ["a": .from([1, 2])], default: .from([3, 4]))
    },
    .failingRow("static switch(_:cases:unmatched:)") { fixture in
      Signal<Int, TestError>.switch(
        fixture.input(["a", "b"]), cases: ["a": .from([1, 2]), "b": .from([3, 4])], unmatched: { _ in TestError() })
    },
    .row("static if(_:then:else:)") { fixture in
      Signal.if(fixture.bools([true, false]), then: .from([1, 2]), else: .from([3, 4]))
    },
    .row("sample(_:)") { fixture in
      let source = fixture.manualInput(Int.self, Never.self)
      let sampler = fixture.manualInput(Void.self, Never.self)
      fixture.onFire {
        for value in 1...3 {
          source.send(value)
          sampler.send(())
        }
        source.complete()
      }
      return source.signal.sample(sampler.signal)
    },
    .row("take(until:)", overload: "trigger") { fixture in
      fixture.ints().take(until: fixture.manualInput(Void.self, Never.self).signal)
    },
    .row("take(untilReplacement:)") { fixture in
      fixture.ints([1, 2]).take(untilReplacement: fixture.ints([3, 4]))
    },
  ]
}
