import Dispatch
import Testing

@testable import AsyncSignals

/// A source that records whether the observer it was attached with carries a demand (see `Demand`), and sends
/// nothing.
final class DemandProbe: Sendable {
  private let seen = Locked<[Bool]>([])

  /// Whether each attachment so far carried a demand.
  var carried: [Bool] { seen.value }

  func signal<Value: Sendable>(of _: Value.Type = Int.self) -> Signal<Value, Never> {
    AnonymousSignal { observer in
      self.seen.append(observer.demand != nil)
      return DisposedDisposable.shared
    }
  }
}

/// Attaches `signal` with an observer that carries a demand, as a bounded consumer does.
private func attachBounded<Value>(_ signal: Signal<Value, Never>) -> any Disposable {
  signal.attach(Observer(raw: { _, _ in .proceed }, demand: Demand()))
}

/// The operators the Flow Control article lists as carrying the pause, each applied to a probe.
private let carrying: [(name: String, apply: @Sendable (DemandProbe) -> any Disposable)] = [
  ("map", { attachBounded($0.signal().map { $0 + 1 }) }),
  ("compactMap", { attachBounded($0.signal().compactMap { $0 > 0 ? $0 : nil }) }),
  ("replace(with:)", { attachBounded($0.signal().replace(with: "x")) }),
  ("filter", { attachBounded($0.signal().filter { $0 > 0 }) }),
  ("ignore(_:)", { attachBounded($0.signal().ignore(3)) }),
  ("ignoreValues()", { attachBounded($0.signal().ignoreValues()) }),
  ("scan", { attachBounded($0.signal().scan(0, +)) }),
  ("combinePrevious", { attachBounded($0.signal().combinePrevious(0) { $0 + $1 }) }),
  ("take(_:)", { attachBounded($0.signal().take(3)) }),
  ("take(while:)", { attachBounded($0.signal().take(while: { $0 < 3 })) }),
  ("take(until:) a predicate", { attachBounded($0.signal().take(until: { $0 > 3 })) }),
  ("skip(_:)", { attachBounded($0.signal().skip(3)) }),
  ("skip(while:)", { attachBounded($0.signal().skip(while: { $0 < 3 })) }),
  ("distinctUntilChanged()", { attachBounded($0.signal().distinctUntilChanged()) }),
  ("doNext", { attachBounded($0.signal().doNext { _ in }) }),
  ("doError", { attachBounded($0.signal().doError { _ in }) }),
  ("doCompleted", { attachBounded($0.signal().doCompleted {}) }),
  ("finally", { attachBounded($0.signal().finally {}) }),
  ("doDisposed", { attachBounded($0.signal().doDisposed {}) }),
  ("initially", { attachBounded($0.signal().initially {}) }),
  ("materialize()", { attachBounded($0.signal().materialize()) }),
  ("dematerialize()", { attachBounded($0.signal(of: Event<Int, Never>.self).dematerialize()) }),
  (
    "mapError",
    {
      attachBounded(
        $0.signal().promoteError(to: TestError.self).mapError { _ in TestError(code: 2) }.catch { _ in .empty })
    }
  ),
  ("promoteError(to:)", { attachBounded($0.signal().promoteError(to: TestError.self).catch { _ in .empty }) }),
  ("catch", { attachBounded($0.signal().promoteError(to: TestError.self).catch { _ in .empty }) }),
  ("tryMap", { attachBounded($0.signal().promoteError(to: TestError.self).tryMap { $0 }.catch { _ in .empty }) }),
  ("try", { attachBounded($0.signal().promoteError(to: TestError.self).try { _ in }.catch { _ in .empty }) }),
  ("not()", { attachBounded($0.signal(of: Bool.self).not()) }),
  ("and()", { attachBounded($0.signal(of: [Bool].self).and()) }),
  ("or()", { attachBounded($0.signal(of: [Bool].self).or()) }),
  ("logEvents", { attachBounded($0.signal().logEvents(to: { _ in })) }),
  ("startWith", { attachBounded($0.signal().startWith(0)) }),
  ("buffer(count:)", { attachBounded($0.signal().buffer(count: 2)) }),
  ("subscribe(on:)", { attachBounded($0.signal().subscribe(on: ImmediateScheduler.shared)) }),
  ("defer", { probe in attachBounded(Signal.defer { probe.signal() }) }),
  // The hops carry it as a stage of their own (flow control, part 2): the consumer's room and the hop's.
  ("deliver(on:)", { attachBounded($0.signal().deliver(on: TestScheduler())) }),
  ("deliverOnMainThread()", { attachBounded($0.signal().deliverOnMainThread()) }),
  ("deliver(on:) an ActorScheduler", { attachBounded($0.signal().deliver(on: ActorScheduler(MainActor.shared))) }),
  // Bounded concurrency (issue 28): the outer signal carries the operator's stage, each inner the consumer's room.
  ("merge", { attachBounded($0.signal().merge(.never)) }),
  ("Signal.merge", { probe in attachBounded(Signal.merge([.never, probe.signal()])) }),
  ("Signal.concat", { probe in attachBounded(Signal.concat([probe.signal(), .never])) }),
  ("concat(), its outer", { attachBounded($0.signal(of: Signal<Int, Never>.self).concat()) }),
  ("concat(), its inners", { probe in attachBounded(Signal.return(probe.signal()).concat()) }),
  (
    "flatten(maxConcurrent:), its outer",
    { attachBounded($0.signal(of: Signal<Int, Never>.self).flatten(maxConcurrent: 2)) }
  ),
  (
    "flatten(maxConcurrent:), its inners",
    { probe in attachBounded(Signal.return(probe.signal()).flatten(maxConcurrent: 2)) }
  ),
  (
    "flattenMap(maxConcurrent:), its source",
    { attachBounded($0.signal().flattenMap(maxConcurrent: 2) { _ in Signal<Int, Never>.never }) }
  ),
  (
    "flattenMap(maxConcurrent:), its inners",
    { probe in attachBounded(Signal<Int, Never>.return(0).flattenMap(maxConcurrent: 2) { _ in probe.signal() }) }
  ),
]

/// The operators the article lists as ending the pause, each applied to a probe (as their first input).
private let ending: [(name: String, apply: @Sendable (DemandProbe) -> any Disposable)] = [
  ("flatten", { probe in attachBounded(Signal.return(probe.signal()).flatten()) }),
  (
    "flatten(maxConcurrent: 0), no limit",
    { attachBounded($0.signal(of: Signal<Int, Never>.self).flatten(maxConcurrent: 0)) }
  ),
  ("flattenMap", { probe in attachBounded(Signal<Int, Never>.return(0).flattenMap { _ in probe.signal() }) }),
  (
    "flattenMapLatest",
    { probe in attachBounded(Signal<Int, Never>.return(0).flattenMapLatest { _ in probe.signal() }) }
  ),
  ("concat(_:) of two", { attachBounded($0.signal().concat(.never)) }),
  ("switchToLatest", { probe in attachBounded(Signal.return(probe.signal()).switchToLatest()) }),
  ("zip", { attachBounded($0.signal().zip(with: Signal<Int, Never>.never)) }),
  ("combineLatest", { attachBounded($0.signal().combineLatest(with: Signal<Int, Never>.never)) }),
  ("sample", { attachBounded($0.signal().sample(Signal<Int, Never>.never)) }),
  ("take(until:) a signal", { attachBounded($0.signal().take(until: Signal<Int, Never>.never)) }),
  ("repeat", { attachBounded($0.signal().repeat()) }),
  ("retry", { attachBounded($0.signal().retry()) }),
  ("throttle", { attachBounded($0.signal().throttle(.seconds(1), on: TestScheduler())) }),
  ("delay", { attachBounded($0.signal().delay(.seconds(1), on: TestScheduler())) }),
  (
    "timeout",
    {
      attachBounded(
        $0.signal().promoteError(to: TestError.self).timeout(.seconds(1), on: TestScheduler(), raising: TestError())
          .catch { _ in .empty })
    }
  ),
  ("buffer(time:on:)", { attachBounded($0.signal().buffer(time: .seconds(1), on: TestScheduler())) }),
  ("buffer(time:count:on:)", { attachBounded($0.signal().buffer(time: .seconds(1), count: 2, on: TestScheduler())) }),
  ("collect()", { attachBounded($0.signal().collect()) }),
  ("takeLast(_:)", { attachBounded($0.signal().takeLast(2)) }),
  ("aggregate", { attachBounded($0.signal().aggregate(0, +)) }),
]

@Suite("Demand: how a bounded consumer's room reaches a source")
struct DemandTests {
  @Test("a one-input operator that sends at most one value per value carries the demand up", arguments: carrying)
  func operatorCarries(_ entry: (name: String, apply: @Sendable (DemandProbe) -> any Disposable)) {
    let probe = DemandProbe()
    let subscription = TestScheduler().performAsCurrent { entry.apply(probe) }
    #expect(probe.carried == [true], "\(entry.name)")
    subscription.dispose()
  }

  @Test("an operator that hops, combines inputs or sends several values per input ends the pause", arguments: ending)
  func operatorEnds(_ entry: (name: String, apply: @Sendable (DemandProbe) -> any Disposable)) {
    let probe = DemandProbe()
    let subscription = TestScheduler().performAsCurrent { entry.apply(probe) }
    #expect(probe.carried.first == false, "\(entry.name)")
    subscription.dispose()
  }

  @Test("a registration runs once the consumer reopens, not before; registering while open does not register")
  func registerThenReopen() {
    let demand = Demand()
    let ran = Locked(0)
    #expect(demand.resume(whenRoom: { ran.increment() }) == nil)  // open: go on, nothing registered
    demand.close(generation: 1)
    #expect(!demand.hasRoom)
    #expect(demand.resume(whenRoom: { ran.increment() }) != nil)
    #expect(ran.value == 0)
    let resumptions = demand.reopen(generation: 2)
    #expect(demand.hasRoom)
    #expect(ran.value == 0)  // the consumer runs them once its own lock is released
    for resumption in resumptions { resumption() }
    #expect(ran.value == 1)
    #expect(demand.reopen(generation: 3).isEmpty)  // once
  }

  @Test("changes apply in the order of their generations, whichever reaches the demand first")
  func generationsOrderChanges() {
    let demand = Demand()
    demand.close(generation: 2)  // decided after the reopening below, but it arrives first
    let ran = Locked(0)
    _ = demand.resume(whenRoom: { ran.increment() })
    #expect(demand.reopen(generation: 1).isEmpty)  // an earlier decision, arriving late: ignored
    #expect(!demand.hasRoom)
    for resumption in demand.reopen(generation: 3) { resumption() }
    #expect(demand.hasRoom && ran.value == 1)
    demand.close(generation: 2)  // late again: ignored, the demand stays open
    #expect(demand.hasRoom)
  }

  @Test("ending opens the demand for good and hands over every registration")
  func endReleasesAll() {
    let demand = Demand()
    demand.close(generation: 1)
    let ran = Locked(0)
    for _ in 0..<3 { _ = demand.resume(whenRoom: { ran.increment() }) }
    for resumption in demand.end() { resumption() }
    #expect(ran.value == 3)
    demand.close(generation: 2)
    #expect(demand.hasRoom)  // ended: closing no more
    #expect(demand.resume(whenRoom: { ran.increment() }) == nil)
  }

  @Test("a withdrawn registration is returned once and does not run on reopening")
  func withdraw() {
    let demand = Demand()
    demand.close(generation: 1)
    let ran = Locked(0)
    let id = demand.resume(whenRoom: { ran.increment() })!
    #expect(demand.withdraw(id) != nil)
    #expect(demand.withdraw(id) == nil)
    #expect(demand.reopen(generation: 2).isEmpty)
    #expect(ran.value == 0)
  }

  @Test("room() returns at once while open, waits while closed, and returns when the consumer reopens")
  func roomWaits() async {
    let demand = Demand()
    await demand.room()  // open: at once
    demand.close(generation: 1)
    let returned = Locked(false)
    let executor = SerialTaskExecutor()
    let waiter = Task(executorPreference: executor) {
      await demand.room()
      returned.value = true
    }
    await executor.drained()  // the waiter has run up to its suspension in room()
    #expect(!returned.value)
    let resumptions = demand.reopen(generation: 2)
    #expect(resumptions.count == 1)  // the waiter's, registered before it suspended
    for resumption in resumptions { resumption() }
    await waiter.value
    #expect(returned.value)
  }

  @Test("room() returns when its task is cancelled, while the demand stays closed")
  func roomCancelled() async {
    let demand = Demand()
    demand.close(generation: 1)
    let executor = SerialTaskExecutor()
    let waiter = Task(executorPreference: executor) { await demand.room() }
    await executor.drained()  // the waiter is registered and suspended in room(): cancelling must withdraw it
    waiter.cancel()
    await waiter.value  // would hang if cancellation did not withdraw and resume the waiter
    #expect(!demand.hasRoom)
    #expect(demand.reopen(generation: 2).isEmpty)  // withdrawn: nothing left to resume
  }
}
