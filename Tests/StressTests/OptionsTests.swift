import Foundation
import Testing

@testable import Stress

@Suite("Stress command line")
struct OptionsTests {
  @Test("no arguments: every scenario, about a minute in total, four threads")
  func defaults() throws {
    let options = try Options.parse([])
    #expect(options == Options())
    #expect(options.threads == 4 && options.iterations == nil && options.seconds == nil && !options.quiet)
    let runner = Runner(options: options, console: Console { _, _ in })
    let selected = try StressCommand.select(options).get()
    #expect(selected.count * Int(runner.defaultSeconds(for: selected.count)) <= 60)
  }

  @Test("every option is parsed; --scenario and --sabotage repeat")
  func everyOption() throws {
    let options = try Options.parse([
      "--scenario", "Zip", "--scenario", "Subject", "--seconds", "2.5", "--threads", "8", "--quiet", "--seed", "42",
      "--watchdog", "3", "--sabotage", "Zip", "--sabotage", "data-race", "--list", "--help",
    ])
    #expect(options.scenarios == ["Zip", "Subject"])
    #expect(options.seconds == 2.5 && options.threads == 8 && options.quiet && options.seed == 42)
    #expect(options.watchdog == 3 && options.sabotage == ["Zip", "data-race"] && options.list && options.help)
    #expect(try Options.parse(["--iterations", "7"]).iterations == 7)
  }

  @Test(
    "bad arguments are rejected with a message naming the flag",
    arguments: [
      (["--iterations", "3", "--seconds", "1"], "give --iterations or --seconds, not both"),
      (["--threads", "0"], "--threads must be a positive number, not 0"),
      (["--seconds", "soon"], "--seconds must be a positive number, not soon"),
      (["--scenario"], "--scenario needs a value"),
      (["--scenario", "--quiet"], "--scenario needs a value"),
      (["--seed", "-1"], "--seed must be an integer, not -1"),
      (["--fast"], "unknown argument --fast"),
    ])
  func badArguments(arguments: [String], message: String) {
    #expect(throws: Options.ParseError(message: message)) { try Options.parse(arguments) }
  }

  @Test("an unknown scenario, to run or to sabotage, is an error; exit status 2")
  func unknownScenario() throws {
    #expect(throws: Options.ParseError.self) {
      try StressCommand.select(Options.parse(["--scenario", "Nope"])).get()
    }
    #expect(throws: Options.ParseError.self) {
      try StressCommand.select(Options.parse(["--sabotage", "Nope"])).get()
    }
    #expect(StressCommand.main(["--scenario", "Nope"], console: Console { _, _ in }) == 2)
    #expect(StressCommand.main(["--threads"], console: Console { _, _ in }) == 2)
  }

  @Test("the default run leaves out the known failures; naming one runs it")
  func knownFailures() throws {
    let names = try StressCommand.select(Options.parse([])).get().map(\.name)
    let known = allScenarios.filter { $0.knownFailure != nil }.map(\.name)
    #expect(!known.isEmpty)
    #expect(names == allScenarios.map(\.name).filter { !known.contains($0) })
    #expect(try StressCommand.select(Options.parse(["--scenario", known[0]])).get().map(\.name) == [known[0]])
  }

  @Test("--list names every scenario, by family, with its invariants and its sabotage")
  func listing() {
    let lines = LockedLines()
    #expect(StressCommand.main(["--list"], console: lines.console) == 0)
    let text = lines.text
    for (family, _) in scenarioFamilies { #expect(text.contains("== \(family)")) }
    for scenario in allScenarios {
      #expect(text.contains("\(scenario.name): \(scenario.race)"))
      for invariant in scenario.invariants { #expect(text.contains("  - \(invariant)")) }
      #expect(text.contains("  sabotage: \(scenario.sabotage)"))
    }
  }

  @Test("scenario names are unique, and each names its file in Stress/Scenarios (one race per file)")
  func names() {
    let names = allScenarios.map(\.name)
    #expect(Set(names).count == names.count)
    let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Stress/Scenarios")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: scenarios.path)) ?? []
    #expect(Set(files) == Set(names.map { "\($0).swift" }))
  }
}

/// Collects what a run writes.
final class LockedLines: Sendable {
  private let lines = LockedBox<[(String, Console.Stream)]>([])

  var console: Console {
    Console { [lines] line, stream in lines.withLock { $0.append((line, stream)) } }
  }

  var text: String { lines.value.map(\.0).joined(separator: "\n") }

  var errors: String { lines.value.filter { $0.1 == .error }.map(\.0).joined(separator: "\n") }
}
