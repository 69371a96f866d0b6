import Synchronization

/// One race: what it sets up, how its threads race, and the invariants it checks afterwards.
///
/// A scenario lives in `Stress/Scenarios/<Name>.swift`. Each call to `iterate(_:)` builds fresh objects,
/// releases the crew into the race with `Iteration.race(_:)`, and checks its invariants with
/// `Iteration.check(_:_:_:)`. An iteration should take milliseconds, even under ThreadSanitizer: the watchdog
/// treats an iteration that does not finish in time as a deadlock.
protocol Scenario: Sendable {
  /// The name `--scenario` takes; also the name of the file.
  var name: String { get }
  /// One line: what races against what.
  var race: String { get }
  /// The invariants it checks, as they appear in violation reports.
  var invariants: [String] { get }
  /// What `--sabotage <name>` breaks: the broken twin of the code under test the scenario must catch.
  var sabotage: String { get }
  /// Set for a shape that is known to fail with the library as it is (why): it documents a limitation,
  /// runs only when `--scenario` names it, and still fails loudly then.
  var knownFailure: String? { get }
  /// How many threads it races with when `--threads` asks for `requested`.
  func threads(requested: Int) -> Int
  /// A figure the scenario measured over its run, printed after it (for example a queue's high-water mark).
  var report: String? { get }
  /// One iteration.
  func iterate(_ iteration: Iteration)
}

extension Scenario {
  var knownFailure: String? { nil }
  var report: String? { nil }
}

/// What an iteration may use: its crew, its random choices, and the ledger of its scenario.
final class Iteration: Sendable {
  let number: Int
  let threads: Int
  /// Whether `--sabotage` named this scenario: use the broken twin instead of the library.
  let isSabotaged: Bool
  let seed: UInt64
  private let crew: Crew
  private let ledger: Ledger
  private let watchdog: Double
  private let injectDataRace: Bool
  private let onDeadlock: @Sendable (_ stuck: [Int]) -> Void

  init(
    number: Int, seed: UInt64, isSabotaged: Bool, injectDataRace: Bool, crew: Crew, ledger: Ledger,
    watchdog: Double, onDeadlock: @escaping @Sendable ([Int]) -> Void
  ) {
    self.number = number
    self.threads = crew.size
    self.seed = seed
    self.isSabotaged = isSabotaged
    self.injectDataRace = injectDataRace
    self.crew = crew
    self.ledger = ledger
    self.watchdog = watchdog
    self.onDeadlock = onDeadlock
  }

  /// The random generator of the iteration's setup (thread `-1`) or of one thread of its race.
  func random(thread: Int = -1) -> SplitMix {
    var mixer = SplitMix(seed: seed ^ UInt64(bitPattern: Int64(number &* 1_000_003 &+ thread &* 7919)))
    return SplitMix(seed: mixer.next())
  }

  /// Releases every thread of the crew into `body` at once, with the immediate scheduler as the current one
  /// (so `create` bodies run at once), and returns when all have finished. A race that has not finished
  /// when the watchdog expires is a deadlock: the run stops there, loudly.
  func race(_ body: @escaping @Sendable (_ thread: Int, _ random: inout SplitMix) -> Void) {
    race(withCurrentScheduler: true, body)
  }

  /// As `race(_:)`; with `withCurrentScheduler: false` the threads have no current scheduler, so that
  /// subscribing schedules `create` bodies on the background scheduler.
  func race(
    withCurrentScheduler: Bool, _ body: @escaping @Sendable (_ thread: Int, _ random: inout SplitMix) -> Void
  ) {
    let dataRace = injectDataRace ? DeliberateDataRace() : nil
    let stuck = crew.run(timeout: watchdog) { [self] thread in
      dataRace?.touch()
      var random = random(thread: thread)
      if withCurrentScheduler {
        immediately { body(thread, &random) }
      } else {
        body(thread, &random)
      }
    }
    if !stuck.isEmpty { onDeadlock(stuck) }
  }

  /// Records a violation of `invariant` unless `condition` holds.
  func check(_ condition: Bool, _ invariant: String, _ detail: @autoclosure () -> String) {
    if !condition { fail(invariant, detail()) }
  }

  /// Records a violation of `invariant`.
  func fail(_ invariant: String, _ detail: String) {
    ledger.record(Violation(invariant: invariant, detail: detail, iteration: number))
  }

  /// Adds `operations` to the scenario's count of operations (sends, disposals, subscriptions…).
  func count(_ operations: Int) {
    ledger.count(operations)
  }
}

/// One broken invariant.
struct Violation: Sendable {
  let invariant: String
  let detail: String
  let iteration: Int
}

/// The violations and operations of one scenario run; any thread may write to it.
final class Ledger: Sendable {
  private let operations = Atomic<Int>(0)
  private let violations = LockedBox<[Violation]>([])
  private let announce: @Sendable (Violation, _ index: Int) -> Void

  init(announce: @escaping @Sendable (Violation, _ index: Int) -> Void) {
    self.announce = announce
  }

  func count(_ operations: Int) {
    self.operations.wrappingAdd(operations, ordering: .relaxed)
  }

  func record(_ violation: Violation) {
    let index = violations.withLock { list in
      list.append(violation)
      return list.count
    }
    announce(violation, index)
  }

  var operationCount: Int { operations.load(ordering: .relaxed) }

  var recorded: [Violation] { violations.value }
}

/// The unsynchronised writes of `--sabotage data-race`: proves that a ThreadSanitizer report fails the run.
///
/// Every crew thread increments one plain `Int` with no lock: a data race by construction. The pointer
/// travels as an integer address, so no type has to claim to be `Sendable` to carry it.
final class DeliberateDataRace: Sendable {
  private let address: Int

  init() {
    let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    address = Int(bitPattern: pointer)
  }

  deinit {
    UnsafeMutablePointer<Int>(bitPattern: address)?.deallocate()
  }

  func touch() {
    guard let pointer = UnsafeMutablePointer<Int>(bitPattern: address) else { return }
    pointer.pointee += 1
  }
}
