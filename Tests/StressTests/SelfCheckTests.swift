import Foundation
import Testing

@testable import Stress

/// The self-check of issue 6: the harness catches what it claims. Each scenario passes against the library
/// and fails against its broken twin (`--sabotage`), naming itself and one of its own invariants. The runs
/// are short and seeded; they take turns, so that each has the two cores to itself.
@Suite("Stress self-check", .serialized)
struct SelfCheckTests {
  /// The scenarios whose broken twin deadlocks: the watchdog ends the process, so they run as exit tests.
  static let deadlockTwins = [
    "ZipReentrant", "MergeForeignLock", "ZipReplayTake", "BoundedBuffering", "BoundedEcho", "BoundedConsumerQueue",
    "SubjectSend",
  ]

  /// The scenarios whose broken twin reads freed memory on purpose: caught under AddressSanitizer by
  /// `Scripts/stress-asan.sh`'s self-check, not run in this process.
  static let useAfterFreeTwins = ["SubjectTurn", "ZipTurn"]

  /// The broken twins whose failure is a race that needs two threads running at the same instant: on a process
  /// limited to one CPU (`taskset -c 0`, the busy-machine check of issue 27), it may not happen within the run, so
  /// there their check is a known, intermittent issue rather than a failure. Everywhere else it must fail.
  /// (Each of the last two passed its 20 s on one CPU in one pinned run of the whole suite: ZipReplayTake's deadlock
  /// needs a sender inside the zip at the instant another thread's `take(1)` disposes it, and SlowSubscriber's
  /// dropping hand-off a value that arrives while another producer delivers, in release a window of microseconds.)
  static let raceNeedsTwoCPUs: Set<String> = [
    "SerialDelivery", "ZipReentrant", "MergeForeignLock", "ZipReplayTake", "SlowSubscriber",
  ]

  /// Whether the process may run on one CPU only: its affinity mask, which `taskset` sets (Foundation's
  /// `activeProcessorCount` counts the machine's CPUs, not the mask's).
  static let singleCPU: Bool = {
    // Linux: the mask as /proc shows it, "Cpus_allowed_list:\t0" under `taskset -c 0`, "0-1" on two CPUs.
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") })
    else { return ProcessInfo.processInfo.activeProcessorCount < 2 }
    let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
    return !list.contains(",") && !list.contains("-")
  }()

  /// Runs `body`'s expectations, as a known intermittent issue when `name`'s race cannot be relied on here.
  static func expectingCaught(_ name: String, _ body: () async throws -> Void) async rethrows {
    if singleCPU && raceNeedsTwoCPUs.contains(name) {
      await withKnownIssue("\(name)'s twin races two threads; one CPU may not interleave them", isIntermittent: true) {
        try await body()
      }
    } else {
      try await body()
    }
  }

  /// The scenarios that check process-wide state, the count of main-actor jobs `settle()` waits for: in a test
  /// process they would see every other test's jobs, and a twin that leaks a count would make every later `settle`
  /// of the process wait. `Scripts/stress-ci.sh` runs them, and their twins, in a process of their own.
  static let processWide = ["ObservationCount"]

  /// The watchdog of the runs in this process, generous: it ends the whole test process when it fires, and on a
  /// busy machine (`taskset -c 0` beside two busy loops, with the suite's main-actor tests sharing the main queue
  /// that BoundedHop's `deliverOnMainThread()` loop needs) an iteration went 20 s without progress and took every
  /// other test down with it. A real deadlock is caught by the twins run as exit tests, and by `stress-ci.sh`.
  static let watchdog = "300"

  static let sabotageable = allScenarios.filter {
    $0.knownFailure == nil && !deadlockTwins.contains($0.name) && !useAfterFreeTwins.contains($0.name)
      && $0.name != "SubjectEcho" && !processWide.contains($0.name)
  }.map(\.name)

  @Test(
    "every default scenario passes a few iterations against the library",
    arguments: allScenarios.filter {
      $0.knownFailure == nil && !processWide.contains($0.name)
    }.map(\.name))
  func passes(name: String) async {
    let lines = LockedLines()
    let status = await onOwnThread {
      StressCommand.main(
        ["--scenario", name, "--iterations", "3", "--seed", "1", "--watchdog", Self.watchdog, "--quiet"],
        console: lines.console)
    }
    #expect(status == 0, "\(lines.text)")
    #expect(lines.errors.isEmpty)
  }

  @Test(
    "sabotaging a scenario's code under test makes it fail, naming the scenario and an invariant of its own",
    arguments: sabotageable)
  func sabotageIsCaught(name: String) async throws {
    let scenario = try #require(allScenarios.first { $0.name == name })
    let lines = LockedLines()
    let status = await onOwnThread {
      StressCommand.main(
        [
          "--scenario", name, "--sabotage", name, "--seconds", "20", "--seed", "1", "--watchdog", Self.watchdog,
          "--quiet",
        ], console: lines.console)
    }
    await Self.expectingCaught(name) {
      #expect(status == 1)
      let violations = lines.errors.split(separator: "\n").filter { $0.hasPrefix("VIOLATION [\(name)] ") }
      #expect(!violations.isEmpty, "\(lines.text)")
      for violation in violations {
        #expect(
          scenario.invariants.contains { violation.hasPrefix("VIOLATION [\(name)] \($0): ") }
            || violation.contains("further violations"), "\(violation)")
      }
      #expect(lines.errors.contains("violations in \(name)"))
    }
  }

  @Test("the watchdog reports the threads of a race that does not finish in time")
  func crewWatchdog() async {
    let (stuck, stuckAfterRelease) = await onOwnThread { () -> ([Int], [Int]) in
      let crew = Crew(size: 3)
      defer { crew.shutDown() }
      let release = NSCondition()
      let released = Flag()
      let stuck = crew.run(timeout: 0.5) { thread in
        guard thread > 0 else { return }
        release.lock()
        while !released.isSet { release.wait() }
        release.unlock()
      }
      release.lock()
      released.set()
      release.broadcast()
      release.unlock()
      return (stuck, crew.run(timeout: 20) { _ in })
    }
    #expect(stuck == [1, 2])
    #expect(stuckAfterRelease == [])  // the crew recovers once its threads are free
  }

  @Test("a deadlocked scenario stops the run loudly: the violation, the table, exit status 1")
  func deadlockStopsTheRun() async {
    let result = await #expect(
      processExitsWith: .exitCode(1), observing: [\.standardOutputContent, \.standardErrorContent]
    ) {
      var options = Options()
      options.watchdog = 1
      options.quiet = true
      _ = Runner(options: options, console: .standard).run([HangingScenario()])
      exit(0)  // not reached: the watchdog ends the process
    }
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(errors.contains("VIOLATION [Hanging] no deadlock: threads [0, 1] made no progress for 1.0 s"))
    #expect(errors.contains("Stress: DEADLOCK in Hanging; stopping the run"))
    #expect(output.contains("DEADLOCK"))  // the table is printed before the process ends
  }

  @Test(
    "a twin that deadlocks (RAC's lock-holding zip, a blocking merge…) fails its scenario, or breaks an invariant first",
    arguments: deadlockTwins)
  func deadlockTwinIsCaught(name: String) async throws {
    let scenario = try #require(allScenarios.first { $0.name == name })
    await Self.expectingCaught(name) {
      let result = await #expect(processExitsWith: .exitCode(1), observing: [\.standardErrorContent]) { [name] in
        exit(
          StressCommand.main([
            "--scenario", name, "--sabotage", name, "--watchdog", "2", "--seed", "1", "--seconds", "20", "--quiet",
          ]))
      }
      let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(scenario.invariants.contains { errors.contains("VIOLATION [\(name)] \($0): ") }, "\(errors)")
    }
  }

  @Test("the table lists each scenario and the totals; zero violations means exit status 0")
  func table() async {
    let lines = LockedLines()
    let status = await onOwnThread {
      StressCommand.main(["--scenario", "ActionDisposable", "--iterations", "2"], console: lines.console)
    }
    #expect(status == 0)
    let text = lines.text
    #expect(text.contains("scenario") && text.contains("iterations") && text.contains("operations"))
    #expect(text.contains("violations") && text.contains("time"))
    #expect(text.split(separator: "\n").contains { $0.hasPrefix("ActionDisposable ") && $0.contains(" 2 ") })
    #expect(text.contains("[1/1] ActionDisposable: ok: 2 iterations"))
  }
}

/// Runs `body` on a thread of its own and returns its result, leaving the calling task's thread free meanwhile: a
/// Stress run blocks its caller for up to seconds, and run on the cooperative pool (two threads on a 2-core machine)
/// it would hold up every other test's tasks for that long.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// A race that never finishes: two threads wait for each other's lock.
struct HangingScenario: Scenario {
  let name = "Hanging"
  let race = "two threads take two locks in opposite orders"
  let invariants = ["no deadlock"]
  let sabotage = "none"

  func threads(requested: Int) -> Int { 2 }

  func iterate(_ iteration: Iteration) {
    let locks = [NSLock(), NSLock()]
    let holding = Tally()
    iteration.race { thread, _ in
      locks[thread].lock()
      holding.increment()
      while holding.value < 2 { sched_yield() }
      locks[1 - thread].lock()  // never returns: the other thread holds it and waits for ours
    }
  }
}
