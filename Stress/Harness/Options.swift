/// The command line, parsed by hand (the package has no dependencies).
struct Options: Equatable, Sendable {
  var list = false
  var help = false
  var scenarios: [String] = []
  var iterations: Int?
  var seconds: Double?
  var threads = 4
  var quiet = false
  var sabotage: [String] = []
  var seed: UInt64?
  var watchdog: Double = 20

  /// The name `--sabotage` takes to inject a data race (for ThreadSanitizer to report) into every race.
  static let dataRace = "data-race"

  /// The total the default run aims at, spread over the selected scenarios.
  static let defaultTotalSeconds = 56.0

  static let usage = """
    USAGE: Stress [options]

    Hammers AsyncSignals' lock-protected parts from many threads and checks their invariants. Run it under
    ThreadSanitizer: swift run --sanitize=thread Stress

    OPTIONS:
      --list                 List the scenarios, their invariants and their sabotage, then exit.
      --scenario NAME        Run only this scenario (repeatable). Default: all of them but the known
                             failures (shapes that deadlock by design; --list marks them).
      --iterations N         Run each scenario N times.
      --seconds S            Run each scenario for about S seconds. Default: about \(Int(defaultTotalSeconds)) \
    seconds in total.
      --threads N            Race with N threads (default 4; some scenarios use a fixed number).
      --quiet                Print only violations and the final table.
      --seed N               Seed the random choices (default: random; printed at the start).
      --watchdog S           Report a deadlock when an iteration makes no progress for S seconds (default 20).
      --sabotage NAME        Self-check: run scenario NAME against a deliberately broken twin of the code it
                             tests, which must make it fail (repeatable). `--sabotage \(dataRace)` makes every
                             race write to one variable without a lock: ThreadSanitizer must report it.
      --help                 Show this help.

    Exit status: 0 when no invariant was violated, 1 on a violation or a deadlock, 2 on bad arguments. Under
    ThreadSanitizer a report makes the process exit with 66 (TSAN_OPTIONS=halt_on_error=1 stops at the first).
    """

  struct ParseError: Error, Equatable {
    let message: String
  }

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(ParseError) -> Options {
    var options = Options()
    var remaining = arguments[...]
    func value(for flag: String) throws(ParseError) -> String {
      guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
        throw ParseError(message: "\(flag) needs a value")
      }
      return value
    }
    func positive<T: LosslessStringConvertible & Comparable & Numeric>(_ flag: String, as: T.Type)
      throws(ParseError) -> T
    {
      let text = try value(for: flag)
      guard let number = T(text), number > 0 else {
        throw ParseError(message: "\(flag) must be a positive number, not \(text)")
      }
      return number
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--list": options.list = true
      case "--help", "-h": options.help = true
      case "--quiet": options.quiet = true
      case "--scenario": options.scenarios.append(try value(for: argument))
      case "--sabotage": options.sabotage.append(try value(for: argument))
      case "--iterations": options.iterations = try positive(argument, as: Int.self)
      case "--seconds": options.seconds = try positive(argument, as: Double.self)
      case "--threads": options.threads = try positive(argument, as: Int.self)
      case "--watchdog": options.watchdog = try positive(argument, as: Double.self)
      case "--seed":
        let text = try value(for: argument)
        guard let seed = UInt64(text) else { throw ParseError(message: "--seed must be an integer, not \(text)") }
        options.seed = seed
      default: throw ParseError(message: "unknown argument \(argument)")
      }
    }
    if options.iterations != nil && options.seconds != nil {
      throw ParseError(message: "give --iterations or --seconds, not both")
    }
    return options
  }
}
