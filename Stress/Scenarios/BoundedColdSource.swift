import AsyncSignals
import AsyncSignalsInterop
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Flow control: a cold source of up to 10,000,000 values through `map` and `filter` into `.bounded(64)` and a slow
/// loop; the buffer never holds more than 64 values (issue 19).
///
/// Two threads each start a task that loops over `Signal.from(0..<count)` through a chain; the iteration waits for
/// both loops (60 s at most: a loop that has not ended by then is reported). The chains take turns between the
/// threads:
/// - `map { $0 * 3 }.filter { $0 is even }`, walked in the loop's own task: the walk pauses when the buffer is full
///   and the loop, taking the buffer down to half, resumes it on its own thread;
/// - `filter { $0 % 3 != 0 }.map { $0 * 2 }.subscribe(on:)` a queue: walked on the queue, paused and resumed
///   there, racing the loop on the pool.
/// The loop checks each value against the chain's next one as it arrives (nothing lost, in order, with no copy of
/// millions of values) and yields a few times every thousand values, so that a walk on the queue runs ahead.
///
/// The bound is read from the library's instrumented counter, `SignalSequence.Iterator.highWaterMark` (the most
/// values the buffer ever held), not from timing. The documented bound is 64, plus 0 through these operators: they
/// carry the pause, and the walk checks the room before each value, so a full buffer stops it before the next.
///
/// The size: in an optimised build without ThreadSanitizer, the first iteration's first loop walks the full
/// 10,000,000 values (about 8 s here: 0.8 µs a value, most of it the bounded iterator's unspecialised `next`) and
/// the other loops 1,000,000; in a debug or ThreadSanitizer build, where a value costs about 10 µs under
/// ThreadSanitizer (its bookkeeping, and generic code that is not specialised), every loop walks 5,000, so that an
/// iteration stays within a few hundred milliseconds.
struct BoundedColdSourceRace: Scenario {
  static let bound = 64

  static let withinBound =
    "the buffer never holds more than 64 values (the high-water mark, an instrumented counter; the overshoot "
    + "through map, filter and subscribe(on:) is 0)"
  static let noOverflow = "nothing is buffered beyond the bound: overflowCount is 0 (every value came from the walk)"
  static let lossless = "the loop receives exactly the chain's values, in order, and ends once with its completion"

  let name = "BoundedColdSource"
  let race = "two slow loops over .bounded(64) of Signal.from(0..<10,000,000) through map/filter (task / queue)"
  let invariants = [withinBound, noOverflow, lossless]
  let sabotage = UnpausedChain.description

  func threads(requested: Int) -> Int { 2 }

  /// An optimised build without ThreadSanitizer: the one where 10,000,000 values take about a second.
  static let isFullSize: Bool = {
    #if DEBUG
      return false
    #else
      return dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") == nil
    #endif
  }()

  struct Figures {
    var highWaterMark = 0
    var loops = 0
    var values = 0
    var largest = 0
    var overflow = 0
  }

  static let figures = LockedBox(Figures())

  var report: String? {
    let figures = Self.figures.value
    return "high-water mark \(figures.highWaterMark) of the bound \(Self.bound) over \(figures.loops) loops; "
      + "\(figures.values) values walked, the largest source \(figures.largest) values"
      + (Self.isFullSize ? "" : " (a debug or ThreadSanitizer build: 5,000 per loop)")
      + "; overflowCount \(figures.overflow)"
  }

  /// One chain: how it is built from the source, and which value it makes of the source's i-th (`nil`: filtered).
  struct Chain: Sendable {
    let label: String
    let build: @Sendable (Signal<Int, StressFailure>) -> Signal<Int, StressFailure>
    let value: @Sendable (Int) -> Int?
  }

  static func chain(_ number: Int, worker: QueueScheduler) -> Chain {
    if number == 0 {
      return Chain(
        label: "map, filter (walked in the task)", build: { $0.map { $0 &* 3 }.filter { $0 % 2 == 0 } },
        value: { $0 % 2 == 0 ? $0 &* 3 : nil })
    }
    return Chain(
      label: "filter, map, subscribe(on:) (walked on a queue)",
      build: { $0.filter { $0 % 3 != 0 }.map { $0 &* 2 }.subscribe(on: worker) },
      value: { $0 % 3 != 0 ? $0 &* 2 : nil })
  }

  struct Outcome: Sendable {
    var received = 0
    var expected = 0
    var disorder: (index: Int, value: Int, due: Int?)?
    var failure: Int?
    var highWaterMark = 0
    var overflow = 0
  }

  func iterate(_ iteration: Iteration) {
    let worker = QueueScheduler(name: "Stress.BoundedColdSource.worker")
    let outcomes = LockedBox<[Int: Outcome]>([:])
    let sizes = (0..<2).map { thread in
      Self.isFullSize ? (iteration.number == 0 && thread == 0 ? 10_000_000 : 1_000_000) : 5_000
    }
    let chains = (0..<2).map { Self.chain((iteration.number + $0) % 2, worker: worker) }
    let sabotaged = iteration.isSabotaged
    let done = Latch()
    // The threads start the two loops together; the iteration waits for them after the race, with a bound of its
    // own: 10,000,000 values take seconds in an optimised build, a good part of the watchdog on a loaded machine.
    iteration.race(withCurrentScheduler: false) { thread, _ in
      let chain = chains[thread]
      let count = sizes[thread]
      Task.detached {
        let outcome = await Self.read(chain, count: count, sabotaged: sabotaged)
        outcomes.withLock { $0[thread] = outcome }
        done.signal()
      }
      iteration.count(count)
    }
    if !done.wait(for: 2, seconds: 60) {
      iteration.fail(Self.lossless, "the loops over \(sizes) values had not both ended within 60 s")
    }
    let outcome = outcomes.value
    for thread in 0..<2 {
      guard let seen = outcome[thread] else { continue }
      let what = "\(sizes[thread]) values through \(chains[thread].label)"
      iteration.check(
        seen.highWaterMark <= Self.bound, Self.withinBound,
        "\(what): the buffer held \(seen.highWaterMark) values at most; the bound is \(Self.bound)")
      iteration.check(seen.overflow == 0, Self.noOverflow, "\(what): overflowCount is \(seen.overflow)")
      if let disorder = seen.disorder {
        iteration.fail(
          Self.lossless,
          "\(what): value #\(disorder.index) is \(disorder.value), the chain's is "
            + "\(disorder.due.map(String.init) ?? "nothing")")
      }
      iteration.check(
        seen.received == seen.expected && seen.failure == nil, Self.lossless,
        "\(what): \(seen.received) values received of \(seen.expected), failure \(String(describing: seen.failure))")
    }
    Self.figures.withLock { figures in
      for seen in outcome.values {
        figures.highWaterMark = max(figures.highWaterMark, seen.highWaterMark)
        figures.overflow += seen.overflow
      }
      figures.loops += outcome.count
      figures.values += sizes.reduce(0, +)
      figures.largest = max(figures.largest, sizes.max() ?? 0)
    }
  }

  /// The slow loop: checks each value against the chain's next one.
  private static func read(_ chain: Chain, count: Int, sabotaged: Bool) async -> Outcome {
    var signal = chain.build(Signal<Int, StressFailure>.from(0..<count))
    if sabotaged { signal = UnpausedChain.end(signal) }
    var outcome = Outcome()
    outcome.expected = (0..<count).reduce(0) { $0 + (chain.value($1) == nil ? 0 : 1) }
    var source = 0  // the source index the next value is due from
    var iterator = signal.values(bufferingPolicy: .bounded(bound)).makeAsyncIterator()
    do throws(StressFailure) {
      while let value = try await iterator.next() {
        var due: Int?
        while source < count, due == nil {
          due = chain.value(source)
          source += 1
        }
        if due != value, outcome.disorder == nil { outcome.disorder = (outcome.received, value, due) }
        outcome.received += 1
        if outcome.received % 1_000 == 0 {
          for _ in 0..<3 { await Task.yield() }
        }
      }
    } catch {
      outcome.failure = error.code
    }
    outcome.highWaterMark = iterator.highWaterMark
    outcome.overflow = iterator.overflowCount
    return outcome
  }
}
