import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Command-line options.
struct Options {
  var filters: [String] = []
  var repetitions = 5
  var jsonPath: String?
  var markdownPath: String?
  var smoke = false
  var list = false
  var size: Int?
  var libraries: [String] = []

  static let usage = """
    usage: Benchmarks [--filter TEXT[,TEXT…]] [--repetitions N] [--json PATH] [--smoke] [--list]
                      [--markdown PATH] [--size N] [--library NAME[,NAME…]]

      --filter TEXT     run the workloads whose id or title contains TEXT (case-insensitive); repeatable,
                        or comma-separated. `--filter B1,B4` runs B1, B10…B15 and B4*: use `B1$` for B1 alone.
      --repetitions N   timed repetitions of every row, after one warm-up run (default 5, at least 1)
      --json PATH       also write the results as JSON to PATH
      --markdown PATH   also write the results as Markdown tables to PATH (for README.md)
      --smoke           tiny sizes, one repetition, no warm-up: checks that every row runs and that all
                        rows of a workload agree on the checksum (for CI; timings mean nothing)
      --list            list the workloads and exit
      --size N          run every selected workload at size N instead of its own (for profiling)
      --library NAME    run only the rows whose name contains NAME (for profiling; ratios need AsyncSignals)
    """

  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var iterator = arguments.makeIterator()
    func value(_ flag: String) -> String {
      guard let value = iterator.next() else { fail("\(flag) needs a value") }
      return value
    }
    while let argument = iterator.next() {
      switch argument {
      case "--filter":
        options.filters += value(argument).split(separator: ",").map { String($0).lowercased() }
      case "--repetitions":
        guard let count = Int(value(argument)), count >= 1 else { fail("--repetitions needs a number ≥ 1") }
        options.repetitions = count
      case "--json": options.jsonPath = value(argument)
      case "--markdown": options.markdownPath = value(argument)
      case "--smoke": options.smoke = true
      case "--list": options.list = true
      case "--size":
        guard let size = Int(value(argument)), size >= 1 else { fail("--size needs a number ≥ 1") }
        options.size = size
      case "--library":
        options.libraries += value(argument).split(separator: ",").map { String($0).lowercased() }
      case "--help", "-h":
        emit(usage)
        exit(0)
      default: fail("unknown argument \(argument)")
      }
    }
    if options.smoke { options.repetitions = 1 }
    return options
  }

  func selects(_ workload: Workload) -> Bool {
    guard !filters.isEmpty else { return true }
    let id = workload.id.lowercased()
    let title = workload.title.lowercased()
    return filters.contains { filter in
      if filter.hasSuffix("$") { return id == filter.dropLast() }
      return id.contains(filter) || title.contains(filter)
    }
  }
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("Benchmarks: \(message)\n\n\(Options.usage)\n".utf8))
  exit(2)
}

/// The measurements of one row.
struct RowResult: Codable {
  let library: Library
  let variant: String
  let name: String
  /// The workload's measure per operation, one per repetition (ns for `time`).
  var samples: [Double] = []
  var allocationsPerOperation: [Double] = []
  var checksum: Int?
  var median: Double = 0
  var min: Double = 0
  var max: Double = 0
  /// The median over the repetitions of this row's sample divided by the AsyncSignals baseline row's sample in
  /// the same repetition (the rows are interleaved, so both saw the same machine).
  var ratioToAsyncSignals: Double?
  var medianAllocationsPerOperation: Double?
}

struct WorkloadResult: Codable {
  let id: String
  let title: String
  let unit: String
  let measure: Measure
  let size: Int
  let repetitions: Int
  let target: Target?
  var rows: [RowResult]
  /// The row the ratios are taken against.
  var baseline: String?
  var checksumsAgree = true
}

struct RunResult: Codable {
  var machine: Machine
  let smoke: Bool
  var workloads: [WorkloadResult] = []
}

struct Machine: Codable {
  let cpus: Int
  let cpuModel: String
  let loadAverageAtStart: String
  var loadAverageAtEnd = ""
  let date: String

  static func current() -> Machine {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
      ?? "unknown"
    return Machine(
      cpus: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model, loadAverageAtStart: loadAverage(),
      date: ISO8601DateFormatter().string(from: Date()))
  }

  static func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").prefix(3).joined(separator: " ")
  }
}

extension Benchmark {
  /// Parses the command line, runs the selected workloads and prints their tables. Exits non-zero if the rows
  /// of a workload disagree on their checksum (never because of a timing).
  func main(arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
    let options = Options.parse(arguments)
    var selected = workloads.filter(options.selects)
    if !options.libraries.isEmpty {
      for index in selected.indices {
        selected[index].rows.removeAll { row in !options.libraries.contains { row.name.lowercased().contains($0) } }
      }
      selected.removeAll { $0.rows.isEmpty }
    }
    if options.list {
      for workload in workloads {
        let libraries = workload.rows.map(\.name).joined(separator: ", ")
        emit("\(workload.id.padding(5))\(workload.title)  [\(libraries)]")
      }
      return
    }
    if selected.isEmpty { fail("no workload matches \(options.filters)") }

    var run = RunResult(machine: .current(), smoke: options.smoke)
    emit(
      "AsyncSignals benchmarks: \(run.machine.cpus) CPUs, \(run.machine.cpuModel), load average "
        + "\(run.machine.loadAverageAtStart); \(options.smoke ? "SMOKE (tiny sizes, timings mean nothing)" : "release"), "
        + "\(options.repetitions) repetition(s)\(options.smoke ? "" : " after a warm-up")")
    if !Allocations.isAvailable { emit("(allocation counts unavailable on this platform)") }
    for workload in selected {
      let result = measure(workload, options: options)
      printTable(workload, result)
      run.workloads.append(result)
    }
    run.machine.loadAverageAtEnd = Machine.loadAverage()
    emit("\nload average at the end: \(run.machine.loadAverageAtEnd)")

    if let path = options.jsonPath {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      do {
        try encoder.encode(run).write(to: URL(fileURLWithPath: path))
      } catch {
        fail("cannot write \(path): \(error)")
      }
    }
    if let path = options.markdownPath {
      do {
        try Data(markdown(run).utf8).write(to: URL(fileURLWithPath: path))
      } catch {
        fail("cannot write \(path): \(error)")
      }
    }
    let disagreeing = run.workloads.filter { !$0.checksumsAgree }.map(\.id)
    if !disagreeing.isEmpty {
      FileHandle.standardError.write(Data("Benchmarks: checksums disagree in \(disagreeing)\n".utf8))
      exit(1)
    }
  }

  private func measure(_ workload: Workload, options: Options) -> WorkloadResult {
    let size = options.size ?? (options.smoke ? workload.smokeSize : workload.size)
    var results = workload.rows.map { RowResult(library: $0.library, variant: $0.variant, name: $0.name) }
    func rowSize(_ row: Row) -> Int { min(size, row.maxSize ?? size) }

    func runOnce(_ index: Int) -> (checksum: Int, sample: Double, allocations: Double) {
      let row = workload.rows[index]
      let size = rowSize(row)
      let operations = Double(size * workload.operationsPerItem)
      let allocationsBefore = Allocations.count
      let start = DispatchTime.now().uptimeNanoseconds
      var checksum: Int
      var bytes = 0.0
      switch row.body {
      case .sync(let body): checksum = body(size)
      case .async(let body): checksum = runBlocking { await body(size) }
      case .bytes(let body): (checksum, bytes) = body(size)
      }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
      let allocations = Double(Allocations.count - allocationsBefore) / operations
      switch workload.measure {
      case .time: return (checksum, elapsed / operations, allocations)
      case .allocations: return (checksum, allocations, allocations)
      case .bytes: return (checksum, bytes, allocations)
      }
    }

    if !options.smoke {
      for index in workload.rows.indices { _ = runOnce(index) }
    }
    for repetition in 0..<options.repetitions {
      // Interleaved, starting with a different row each time, so that every row sees the same machine.
      for offset in workload.rows.indices {
        let index = (offset + repetition) % workload.rows.count
        let (checksum, sample, allocations) = runOnce(index)
        results[index].samples.append(sample)
        results[index].allocationsPerOperation.append(allocations)
        results[index].checksum = checksum
      }
    }

    let baseline =
      workload.rows.firstIndex { $0.isBaseline } ?? workload.rows.firstIndex { $0.library == .asyncSignals }
    for index in results.indices {
      results[index].median = median(results[index].samples)
      results[index].min = results[index].samples.min() ?? 0
      results[index].max = results[index].samples.max() ?? 0
      if !workload.rows[index].threaded {
        results[index].medianAllocationsPerOperation = median(results[index].allocationsPerOperation)
      }
      if let baseline {
        let ratios = zip(results[index].samples, results[baseline].samples).map { $1 == 0 ? 0 : $0 / $1 }
        results[index].ratioToAsyncSignals = median(ratios)
      }
    }
    var result = WorkloadResult(
      id: workload.id, title: workload.title, unit: workload.unit, measure: workload.measure, size: size,
      repetitions: options.repetitions, target: workload.target, rows: results)
    result.checksumsAgree = zip(workload.rows, results).allSatisfy { row, result in
      let expected = workload.expected?(rowSize(row)) ?? results.first?.checksum
      return row.lossy || result.checksum == expected
    }
    result.baseline = baseline.map { results[$0].name }
    return result
  }

  private func printTable(_ workload: Workload, _ result: WorkloadResult) {
    let what: String
    switch workload.measure {
    case .time: what = "ns per \(workload.unit)"
    case .allocations: what = "allocations per \(workload.unit)"
    case .bytes: what = "bytes per \(workload.unit)"
    }
    emit("\n\(workload.id)  \(workload.title) — \(what), size \(result.size.grouped), \(result.repetitions) rep(s)")
    if let target = workload.target {
      emit("    target: \(verdict(target, result))")
    }
    let header =
      "    " + "library".padding(40) + "median".leftPadding(11) + "min".leftPadding(11) + "max".leftPadding(11)
      + "× AsyncSignals".leftPadding(16) + "allocs/op".leftPadding(12)
    emit(header)
    for row in result.rows {
      let ratio = row.ratioToAsyncSignals.map { String(format: "%.2f", $0) } ?? "—"
      let allocations = row.medianAllocationsPerOperation.map { String(format: "%.2f", $0) } ?? "—"
      emit(
        "    " + row.name.padding(40) + row.median.display.leftPadding(11) + row.min.display.leftPadding(11)
          + row.max.display.leftPadding(11) + ratio.leftPadding(16) + allocations.leftPadding(12))
    }
    if !result.checksumsAgree {
      let sums = result.rows.map { "\($0.name)=\($0.checksum.map(String.init) ?? "nil")" }.joined(separator: ", ")
      let expected = workload.expected.map { " (expected \($0(result.size)))" } ?? ""
      emit("    CHECKSUMS DISAGREE\(expected): \(sums)")
    }
  }
}

/// The results as Markdown: one table per workload.
private func markdown(_ run: RunResult) -> String {
  let machine = run.machine
  var lines = [
    "\(machine.cpus) CPUs, \(machine.cpuModel); load average \(machine.loadAverageAtStart) at the start and "
      + "\(machine.loadAverageAtEnd) at the end; \(machine.date).", "",
  ]
  for workload in run.workloads {
    let what: String
    switch workload.measure {
    case .time: what = "ns per \(workload.unit)"
    case .allocations: what = "allocations per \(workload.unit)"
    case .bytes: what = "bytes per \(workload.unit)"
    }
    lines.append("**\(workload.id)** \(workload.title) — \(what), n = \(workload.size.grouped)")
    if let target = workload.target { lines.append("(target: \(verdict(target, workload)))") }
    lines.append("")
    lines.append("| library | median | min | max | × AsyncSignals | allocs/op |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in workload.rows {
      let ratio = row.ratioToAsyncSignals.map { String(format: "%.2f", $0) } ?? "—"
      let allocations = row.medianAllocationsPerOperation.map { String(format: "%.2f", $0) } ?? "—"
      lines.append(
        "| \(row.name) | \(row.median.display) | \(row.min.display) | \(row.max.display) | \(ratio) | \(allocations) |")
    }
    lines.append("")
  }
  return lines.joined(separator: "\n")
}

/// Whether the baseline AsyncSignals row meets `target`.
private func verdict(_ target: Target, _ result: WorkloadResult) -> String {
  let rows = result.rows
  let ours = rows.first { $0.name == result.baseline && $0.library == .asyncSignals }?.median
  guard let relativeTo = target.relativeTo else {
    let outcome = ours.map { $0 <= target.atMost ? "met" : "MISSED" } ?? "no AsyncSignals row yet"
    return "AsyncSignals ≤ \(target.atMost.display) (\(target.note)): \(outcome)"
  }
  let reference = rows.first { $0.name == relativeTo }?.median
  let outcome: String
  if let ours, let reference, reference > 0 {
    let ratio = ours / reference
    outcome = "\(String(format: "%.2f", ratio)) × — \(ratio <= target.atMost ? "met" : "MISSED")"
  } else {
    outcome = "no AsyncSignals row yet"
  }
  return "AsyncSignals ≤ \(String(format: "%.2f", target.atMost)) × \(relativeTo) (\(target.note)): \(outcome)"
}

private func median(_ values: [Double]) -> Double {
  guard !values.isEmpty else { return 0 }
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self + " " : self + String(repeating: " ", count: width - count)
  }

  fileprivate func leftPadding(_ width: Int) -> String {
    count >= width ? " " + self : String(repeating: " ", count: width - count) + self
  }
}

extension Double {
  fileprivate var display: String {
    if self >= 1000 { return Int(self.rounded()).grouped }
    if self >= 100 { return String(format: "%.0f", self) }
    return String(format: "%.2f", self)
  }
}

extension Int {
  fileprivate var grouped: String {
    let digits = String(self.magnitude)
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return self < 0 ? "-" + result : result
  }
}

/// Writes a line to standard output at once (unbuffered), so that a long run shows its tables as they come.
func emit(_ line: String = "") {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
