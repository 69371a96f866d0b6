@testable import AsyncSignals

// The guarantee 2 sweep's rows for the operators with one input: transforming, filtering, aggregating, Booleans,
// debugging, errors, side effects, `buffer(count:)`, `groupBy`, `repeat` and `retry`. Each row's first string is the
// name in the symbol graph (see Support/Guarantee2Sweep.swift).

extension SweepRow {
  static let singleInput: [SweepRow] = transforming + filtering + aggregating + errorsAndSideEffects

  static let transforming: [SweepRow] = [
    .row("map(_:)") { fixture in fixture.ints().map { $0 * 10 } },
    .row("compactMap(_:)") { fixture in fixture.ints().compactMap { $0 == 2 ? nil : $0 } },
    .row("replace(with:)") { fixture in fixture.ints().replace(with: "x") },
    .row("startWith(_:)", subscribing: .sendsSomeValues) { fixture in fixture.ints().startWith(0) },
    .row("scan(_:_:)") { fixture in fixture.ints().scan(0, +) },
    .row("scan(_:withIndex:)") { fixture in fixture.ints().scan(0, withIndex: { $0 + $1 * $2 }) },
    .row("combinePrevious(_:_:)") { fixture in fixture.ints().combinePrevious(0) { "\($0)-\($1)" } },
    .row("buffer(count:file:line:)") { fixture in fixture.ints().buffer(count: 2) },
    .row("groupBy(_:transform:)") { fixture in fixture.ints().groupBy({ $0 % 2 }, transform: { $0 * 10 }) },
    .row("groupBy(_:)") { fixture in fixture.ints().groupBy { $0 % 2 } },
    .row("not()") { fixture in fixture.bools([true, false, true]).not() },
    .row("and()") { fixture in fixture.input([[true, true], [true, false], [true]]).and() },
    .row("or()") { fixture in fixture.input([[false, true], [false, false], [true]]).or() },
    .row("materialize()") { fixture in fixture.ints().materialize() },
    .row("dematerialize()") { fixture in
      fixture.input([Event<Int, Never>.next(1), .next(2), .next(3), .completed]).dematerialize()
    },
  ]

  static let filtering: [SweepRow] = [
    .row("filter(_:)") { fixture in fixture.ints().filter { $0 != 3 } },
    .row("take(_:file:line:)") { fixture in fixture.ints().take(3) },
    .row("skip(_:file:line:)") { fixture in fixture.ints().skip(1) },
    .row("take(until:)", overload: "predicate") { fixture in fixture.ints().take(until: { $0 == 4 }) },
    .row("take(while:)") { fixture in fixture.ints().take(while: { $0 < 4 }) },
    .row("skip(until:)") { fixture in fixture.ints().skip(until: { $0 == 2 }) },
    .row("skip(while:)") { fixture in fixture.ints().skip(while: { $0 < 2 }) },
    .row("distinctUntilChanged(by:)") { fixture in fixture.ints([1, 1, 2, 2, 3]).distinctUntilChanged(by: ==) },
    .row("ignore(_:)") { fixture in fixture.ints().ignore(2) },
    .row("distinctUntilChanged()") { fixture in fixture.ints([1, 1, 2, 3, 3]).distinctUntilChanged() },
  ]

  static let aggregating: [SweepRow] = [
    .row("collect()", values: 1, because: sendsOneValue) { fixture in fixture.ints().collect() },
    .row("takeLast(_:file:line:)") { fixture in fixture.ints().takeLast(3) },
    .row("aggregate(_:_:)", values: 1, because: sendsOneValue) { fixture in fixture.ints().aggregate(0, +) },
    .row("aggregate(_:withIndex:)", values: 1, because: sendsOneValue) { fixture in
      fixture.ints().aggregate(0, withIndex: { $0 + $1 * $2 })
    },
    .row("aggregate(startFactory:_:)", values: 1, because: sendsOneValue) { fixture in
      fixture.ints().aggregate(startFactory: { 0 }, +)
    },
    .row("any()", values: 1, because: sendsOneValue) { fixture in fixture.ints().any() },
    .row("any(where:)", values: 1, because: sendsOneValue) { fixture in fixture.ints().any(where: { $0 == 2 }) },
    .row("all(where:)", values: 1, because: sendsOneValue) { fixture in fixture.ints().all(where: { $0 < 3 }) },
  ]

  static let errorsAndSideEffects: [SweepRow] = [
    .row("logEvents(to:)") { fixture in fixture.ints().logEvents(to: { _ in }) },
    .row("logNext(to:)") { fixture in fixture.ints().logNext(to: { _ in }) },
    .row("logError(to:)") { fixture in fixture.ints().logError(to: { _ in }) },
    .row("logCompleted(to:)") { fixture in fixture.ints().logCompleted(to: { _ in }) },
    .row("catch(_:)") { fixture in
      // The source fails at once: the values come from the replacement.
      let replacement: Signal<Int, Never> = fixture.lateInput([1, 2, 3])
      return fixture.failingInts([], then: .error(TestError())).catch { _ in replacement }
    },
    .row("catch(to:)") { fixture in
      fixture.failingInts([], then: .error(TestError())).catch(to: .from([1, 2, 3]))
    },
    .row("try(_:)") { fixture in fixture.ints().try { _ in } },
    .row("tryMap(_:)") { fixture in fixture.ints().tryMap { $0 * 2 } },
    .silentRow("ignoreValues()", because: "drops every value: that is what it does") { fixture in
      fixture.ints().ignoreValues()
    },
    .failingRow("mapError(_:)") { fixture in fixture.failingInts().mapError { TestError(code: $0.code + 1) } },
    .failingRow("promoteError(to:)") { fixture in fixture.ints().promoteError(to: TestError.self) },
    .row("doNext(_:)") { fixture in fixture.ints().doNext { _ in } },
    .row("doError(_:)") { fixture in fixture.ints().doError { _ in } },
    .row("doCompleted(_:)") { fixture in fixture.ints().doCompleted {} },
    .row("initially(_:)") { fixture in fixture.ints().initially {} },
    .row("doSubscribed(_:)") { fixture in fixture.ints().doSubscribed {} },
    .row("finally(_:)") { fixture in fixture.ints().finally {} },
    .row("doDisposed(_:)") { fixture in fixture.ints().doDisposed {} },
    // The resubscription loops: the first subscription ends at once, and the values come from the second.
    .row("repeat()") { fixture in
      let input = fixture.manualInput(Int.self, Never.self)
      fixture.onFire {
        input.complete()
        input.send([1, 2, 3], then: .completed)
      }
      return input.signal.repeat()
    },
    .failingRow("retry(upTo:file:line:)") { fixture in
      let input = fixture.manualInput(Int.self, TestError.self)
      fixture.onFire {
        input.fail(TestError())
        input.send([1, 2, 3], then: .completed)
      }
      return input.signal.retry(upTo: 2)
    },
    .failingRow("retry()") { fixture in
      let input = fixture.manualInput(Int.self, TestError.self)
      fixture.onFire {
        input.fail(TestError())
        input.send([1, 2, 3], then: .completed)
      }
      return input.signal.retry()
    },
  ]
}
