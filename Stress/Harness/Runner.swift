import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The outcome of one scenario.
struct ScenarioResult: Sendable {
  let name: String
  var iterations = 0
  var operations = 0
  var violations: [Violation] = []
  var seconds = 0.0
  var deadlocked = false
}

/// Runs the selected scenarios one after the other, prints progress and the final table.
struct Runner: Sendable {
  let options: Options
  let console: Console
  /// Where the run stops after a deadlock (the stuck threads can be neither joined nor cancelled).
  var terminate: @Sendable (Int32) -> Never = { exit($0) }

  /// How long each scenario runs when neither `--iterations` nor `--seconds` is given.
  func defaultSeconds(for count: Int) -> Double {
    min(10, max(1, Options.defaultTotalSeconds / Double(max(count, 1))))
  }

  func run(_ scenarios: [any Scenario]) -> [ScenarioResult] {
    let seed = options.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
    let seconds = options.iterations == nil ? (options.seconds ?? defaultSeconds(for: scenarios.count)) : nil
    let budget = options.iterations.map { "\($0) iterations" } ?? String(format: "%.1f s", seconds ?? 0)
    if !options.quiet {
      console.say("Stress: \(scenarios.count) scenarios, \(budget) each, --threads \(options.threads), --seed \(seed)")
    }
    let finished = LockedBox<[ScenarioResult]>([])
    for (position, scenario) in scenarios.enumerated() {
      let result = run(
        scenario, position: position, of: scenarios.count, seed: seed ^ Self.stableHash(scenario.name),
        seconds: seconds, finished: finished)
      finished.withLock { $0.append(result) }
    }
    return finished.value
  }

  private func run(
    _ scenario: any Scenario, position: Int, of total: Int, seed: UInt64, seconds: Double?,
    finished: LockedBox<[ScenarioResult]>
  ) -> ScenarioResult {
    let threads = scenario.threads(requested: options.threads)
    let isSabotaged = options.sabotage.contains(scenario.name)
    let label = "[\(position + 1)/\(total)] \(scenario.name)"
    if !options.quiet {
      let sabotage = isSabotaged ? " SABOTAGED: \(scenario.sabotage)" : ""
      console.say("\(label): \(scenario.race) (\(threads) threads)\(sabotage)")
    }
    let console = self.console
    let name = scenario.name
    let ledger = Ledger { violation, index in
      if index <= 5 {
        console.warn(
          "VIOLATION [\(name)] \(violation.invariant): \(violation.detail) (iteration \(violation.iteration))")
      } else if index == 6 {
        console.warn("VIOLATION [\(name)] … further violations are counted, not printed")
      }
    }
    let crew = Crew(size: threads)
    defer { crew.shutDown() }
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = seconds.map { start.advanced(by: .milliseconds(Int($0 * 1000))) }
    var result = ScenarioResult(name: scenario.name)
    let options = self.options
    let terminate = self.terminate
    let table = self.table
    repeat {
      let number = result.iterations
      let iteration = Iteration(
        number: number, seed: seed, isSabotaged: isSabotaged,
        injectDataRace: options.sabotage.contains(Options.dataRace), crew: crew, ledger: ledger,
        watchdog: options.watchdog
      ) { stuck in
        ledger.record(
          Violation(
            invariant: "no deadlock",
            detail: "threads \(stuck) made no progress for \(options.watchdog) s", iteration: number))
        var deadlocked = ScenarioResult(name: name)
        deadlocked.iterations = number
        deadlocked.operations = ledger.operationCount
        deadlocked.violations = ledger.recorded
        deadlocked.seconds = Self.seconds(clock.now - start)
        deadlocked.deadlocked = true
        console.say(table(finished.value + [deadlocked]))
        console.warn("Stress: DEADLOCK in \(name); stopping the run")
        terminate(1)
      }
      scenario.iterate(iteration)
      result.iterations += 1
      if !ledger.recorded.isEmpty { break }  // a failing scenario stops at its first failing iteration
      if let iterations = options.iterations, result.iterations >= iterations { break }
      if let deadline, clock.now >= deadline { break }
    } while true
    result.operations = ledger.operationCount
    result.violations = ledger.recorded
    result.seconds = Self.seconds(clock.now - start)
    if !options.quiet {
      let verdict = result.violations.isEmpty ? "ok" : "FAILED, \(result.violations.count) violations"
      console.say(
        "\(label): \(verdict): \(result.iterations) iterations, \(result.operations) operations, "
          + String(format: "%.2f s", result.seconds))
    }
    if let report = scenario.report { console.say("\(scenario.name): \(report)") }
    return result
  }

  /// FNV-1a of `name`: the same in every process (unlike `hashValue`), so that `--seed` repeats a scenario's
  /// choices whichever scenarios run with it.
  static func stableHash(_ name: String) -> UInt64 {
    name.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// The final table.
  func table(_ results: [ScenarioResult]) -> String {
    let width = max(24, (results.map(\.name.count).max() ?? 0) + 2)
    func pad(_ text: String, _ count: Int, left: Bool = false) -> String {
      let padding = String(repeating: " ", count: max(0, count - text.count))
      return left ? text + padding : padding + text
    }
    func row(_ name: String, _ iterations: String, _ operations: String, _ violations: String, _ time: String)
      -> String
    {
      pad(name, width, left: true) + pad(iterations, 11) + pad(operations, 14) + pad(violations, 12)
        + pad(time, 11)
    }
    var lines = [row("scenario", "iterations", "operations", "violations", "time")]
    lines.append(String(repeating: "-", count: width + 48))
    for result in results {
      let violations = "\(result.violations.count)" + (result.deadlocked ? " DEADLOCK" : "")
      lines.append(
        row(
          result.name, "\(result.iterations)", "\(result.operations)", violations,
          String(format: "%.2f s", result.seconds)))
    }
    lines.append(String(repeating: "-", count: width + 48))
    lines.append(
      row(
        "total", "\(results.reduce(0) { $0 + $1.iterations })", "\(results.reduce(0) { $0 + $1.operations })",
        "\(results.reduce(0) { $0 + $1.violations.count })",
        String(format: "%.2f s", results.reduce(0) { $0 + $1.seconds })))
    return lines.joined(separator: "\n")
  }
}

/// The program: parses the arguments, runs, prints, answers the exit status.
enum StressCommand {
  static func main(_ arguments: [String], console: Console = .standard) -> Int32 {
    let options: Options
    do {
      options = try Options.parse(arguments)
    } catch {
      console.warn("Stress: \(error.message)\n\n\(Options.usage)")
      return 2
    }
    if options.help {
      console.say(Options.usage)
      return 0
    }
    if options.list {
      console.say(listing(allScenarios))
      return 0
    }
    let selected: [any Scenario]
    switch select(options) {
    case .success(let scenarios): selected = scenarios
    case .failure(let error):
      console.warn("Stress: \(error.message)")
      return 2
    }
    let runner = Runner(options: options, console: console)
    let results = runner.run(selected)
    console.say(runner.table(results))
    let violations = results.reduce(0) { $0 + $1.violations.count }
    if violations > 0 {
      let failed = results.filter { !$0.violations.isEmpty }.map(\.name).joined(separator: ", ")
      console.warn("Stress: \(violations) violations in \(failed)")
      return 1
    }
    return 0
  }

  /// The scenarios `--scenario` selects (all by default), in the order of `allScenarios`.
  static func select(_ options: Options) -> Result<[any Scenario], Options.ParseError> {
    let known = Set(allScenarios.map(\.name))
    let wanted = Set(options.scenarios)
    let sabotaged = Set(options.sabotage).subtracting([Options.dataRace])
    for name in wanted.union(sabotaged).sorted() where !known.contains(name) {
      return .failure(.init(message: "no scenario named \(name); --list shows them"))
    }
    return .success(
      allScenarios.filter { wanted.isEmpty ? $0.knownFailure == nil : wanted.contains($0.name) })
  }

  static func listing(_ scenarios: [any Scenario]) -> String {
    let names = Set(scenarios.map(\.name))
    return scenarioFamilies.compactMap { family, members in
      let listed = members.filter { names.contains($0.name) }
      guard !listed.isEmpty else { return nil }
      return (["== \(family)"] + listed.map(describe)).joined(separator: "\n")
    }.joined(separator: "\n\n")
  }

  private static func describe(_ scenario: any Scenario) -> String {
    var lines = ["\(scenario.name): \(scenario.race)"]
    if let knownFailure = scenario.knownFailure {
      lines.append("  KNOWN FAILURE, run only when named: \(knownFailure)")
    }
    lines += scenario.invariants.map { "  - \($0)" }
    lines.append("  sabotage: \(scenario.sabotage)")
    return lines.joined(separator: "\n")
  }
}
