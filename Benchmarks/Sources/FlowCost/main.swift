import Foundation

#if canImport(Glibc)
import Glibc
#endif

// FlowCost: what a bound costs, per record, in the shapes users write.
//
// `values(bufferingPolicy: .bounded(64))` pauses the sources that can pause, so that memory stays bounded
// (FlowMemory measures that). Pausing and resuming is not free: a paused source gives up its thread and is scheduled
// again, a suspended producer is resumed, a loop that finds its buffer empty waits to be woken. This tool measures
// that price against the unbounded `values` and against the same work without the library, at 1,000,000 small
// records (`Records`: a `Sequence` that is not a `Collection`, 16-byte records made one at a time) with next to no
// work in the loop, so that the pipeline's own cost is what shows. Per row, per record:
//
// - wall time; CPU time (user + system, `getrusage(RUSAGE_SELF)` before and after: every thread of this process);
// - voluntary and involuntary context switches (`ru_nvcsw`, `ru_nivcsw`), per 1,000 records: a pause that costs a
//   thread a sleep and a wake-up shows up here.
//
// Shapes (`--shape`), each read by a `for await` loop in a detached task, bounded (64) and unbounded:
//   a  Signal.from(records) → subscribe(on: QueueScheduler(name: "reader")) → map → loop
//   b  (a) with a hop: reader → map → deliver(on: QueueScheduler(name: "parser")) → map → loop
//   c  Signal.from(0..<n).flattenMap(maxConcurrent: 4) { v in Signal.async { v } } → loop; also the source's
//      resumptions per record, counted by the scheduler it is subscribed on (see `CountingScheduler`)
//   d  Signal.async { subscriber in for i in 0..<n { await subscriber.send(i) } } → loop
//   e  a Subject fed by sendNext from a plain Thread; the bounded row's overflowCount, and a check that it is exact
//      (a thread sends while the loop takes nothing: exactly the values past 64 must be counted)
//   f  a Subject fed by `await subject.send` from a task, started once the loop has seen `startWith`'s sentinel
//   g  latency: one record every 100 µs through (b); p50 and p99 from the producer's stamp to the loop body
//   h  parallelism: (b) with about 1 µs of calibrated spin in each stage (reader, parser, loop): wall time
//
// Baselines in the same process and build: "hand" — the same threads joined by blocking queues of 64 places (a
// pthread mutex and condition variables, batch drains) — for a, b, g, h; "AsyncStream" (unbounded: a bounded
// `.bufferingOldest(64)` drops values, which is not flow control) and "AsyncChannel" (swift-async-algorithms) for a,
// b, d, and AsyncStream fed by a thread for e; a task group of at most 4 children for c.
//
// Every shape runs twice: quiet, then beside a busy neighbour — one `sh -c 'while :; do :; done'` process this tool
// starts before the pass and kills after it. Each row is run `--repetitions` times (interleaved with the shape's other
// rows, after a warm-up) and shows the median of each figure; the ratios (bounded ÷ unbounded, bounded ÷ hand) are
// the medians of the ratios of the same repetition. Every row's loop must receive every value and agree on the
// checksum, or the tool exits non-zero. Timings taken while other work shares the machine mean little: compare
// ratios, or builds in alternating processes (flowcost-compare.sh).
//
//   swift run -c release --package-path Benchmarks FlowCost                       # everything: ~20 minutes
//   swift run -c release --package-path Benchmarks FlowCost --shape a,b --repetitions 9 --quiet-only
//   swift run -c release --package-path Benchmarks FlowCost --smoke               # tiny sizes, correctness (CI)
//   swift run -c release --package-path Benchmarks FlowCost --csv > run.csv       # machine-readable lines
//   Benchmarks/flowcost-baseline.sh /tmp/base-23494cc --shape e   # the same sources against another checkout
//   K=7 Benchmarks/flowcost-compare.sh /tmp/base-23494cc          # medians of alternating processes, both builds
//
// Public API only, and nothing newer than 23494cc needs, so that flowcost-baseline.sh builds these sources unchanged
// against that checkout. Linux (getrusage's context switches, posix_spawn, clock_nanosleep).

struct Options {
  var shapes = shapeIDs
  /// The rows to run, by variant (`nil`: every row of each shape).
  var variants: [String]?
  var records = 1_000_000
  var latencyRecords = 20_000
  var parallelRecords = 200_000
  var repetitions = 3
  var quiet = true
  var busy = true
  var smoke = false
  var csv = false
}

let usage = """
  usage: FlowCost [--shape a,b,…] [--variant bounded,hand,…] [--records N] [--latency-records N]
                  [--parallel-records N] [--repetitions K] [--quiet-only | --busy-only] [--smoke] [--csv]
    --shape              shapes to run, of \(shapeIDs.joined(separator: ",")) (default: all)
    --variant            rows to run, by variant (bounded, unbounded, hand, …; default: all); a profile of one row
    --records            records of a to f (default 1000000)
    --latency-records    records of g, one every 100 µs (default 20000: 2 s a run, or more)
    --parallel-records   records of h, about 3 µs of work each (default 200000)
    --repetitions        timed runs of each row; each figure is their median (default 3)
    --quiet-only         only the pass without the busy neighbour; --busy-only: only the one beside it
    --smoke              tiny sizes, one run, no warm-up: checks that every row runs and agrees (CI)
    --csv                a line per row and per ratio instead of the tables (see the header line)
  """

func parseOptions(_ arguments: [String]) -> Options {
  var options = Options()
  var index = 1
  func value(_ name: String) -> String {
    index += 1
    guard index < arguments.count else { fail("\(name) needs a value\n\(usage)", code: 2) }
    return arguments[index]
  }
  func count(_ name: String) -> Int {
    let text = value(name)
    guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number > 0 else {
      fail("\(name): not a positive number: \(text)", code: 2)
    }
    return number
  }
  var sizes: (records: Int?, latency: Int?, parallel: Int?, repetitions: Int?) = (nil, nil, nil, nil)
  while index < arguments.count {
    switch arguments[index] {
    case "--shape":
      options.shapes = value("--shape").split(separator: ",").map(String.init)
      if let unknown = options.shapes.first(where: { !shapeIDs.contains($0) }) {
        fail("unknown shape \(unknown); of \(shapeIDs.joined(separator: ","))", code: 2)
      }
    case "--variant": options.variants = value("--variant").split(separator: ",").map(String.init)
    case "--records": sizes.records = count("--records")
    case "--latency-records": sizes.latency = count("--latency-records")
    case "--parallel-records": sizes.parallel = count("--parallel-records")
    case "--repetitions": sizes.repetitions = count("--repetitions")
    case "--quiet-only": options.busy = false
    case "--busy-only": options.quiet = false
    case "--smoke": options.smoke = true
    case "--csv": options.csv = true
    case "--help", "-h":
      print(usage)
      exit(0)
    default: fail("unknown option \(arguments[index])\n\(usage)", code: 2)
    }
    index += 1
  }
  if options.smoke {
    (options.records, options.latencyRecords, options.parallelRecords, options.repetitions) = (2000, 50, 500, 1)
  }
  options.records = sizes.records ?? options.records
  options.latencyRecords = sizes.latency ?? options.latencyRecords
  options.parallelRecords = sizes.parallel ?? options.parallelRecords
  options.repetitions = sizes.repetitions ?? options.repetitions
  guard options.quiet || options.busy else { fail("--quiet-only and --busy-only leave nothing to run", code: 2) }
  return options
}

/// Stops the busy neighbour, says why, and exits.
func fail(_ message: String, code: Int32 = 1) -> Never {
  BusyNeighbour.stop()
  FileHandle.standardError.write(Data(("FlowCost: " + message + "\n").utf8))
  exit(code)
}

/// A line of output: a comment line ("# …") in CSV mode.
func note(_ text: String) {
  print(csv ? ("# " + text).trimmingCharacters(in: .whitespaces) : text)
  fflush(nil)  // into a file or a pipe too, a long run shows how far it is
}

let options = parseOptions(CommandLine.arguments)
let csv = options.csv

// The machine, as the README's tables record it.
func cpuModel() -> String {
  let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
  let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
  return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) }
    ?? "unknown CPU"
}
func loadAverage() -> String {
  let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
  return text.split(separator: " ").prefix(3).joined(separator: " ")
}

let spin = calibrateSpin(nanoseconds: 1000)
note(
  "FlowCost, \(ISO8601DateFormatter().string(from: Date())). CPU: \(cpuModel()), "
    + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs; load average \(loadAverage()).")
note(
  "Records: a–f \(grouped(options.records)); g \(grouped(options.latencyRecords)), one per 100 µs; "
    + "h \(grouped(options.parallelRecords)), \(spin.iterations) spin iterations (about 1 µs, "
    + "\(formatted(spin.nanosecondsPerIteration)) ns each) per stage. "
    + (options.smoke
      ? "Smoke: one run per row, no warm-up; the timings mean nothing."
      : "\(options.repetitions) runs per row (medians), interleaved, after a warm-up."))

let shapes = options.shapes.map {
  makeShape(
    $0, records: options.records, latencyRecords: options.latencyRecords, parallelRecords: options.parallelRecords,
    work: spin.iterations
  ).only(options.variants)
}
if let variants = options.variants, shapes.allSatisfy({ $0.rows.isEmpty }) {
  fail("--variant \(variants.joined(separator: ",")) names no row of the shapes chosen", code: 2)
}

/// The medians of one row's runs.
struct Medians {
  var wall, cpu, voluntary, involuntary: Double
  var overflowCount, resumptionsPerRecord, p50, p99: Double?

  init(_ samples: [Sample], records: Int) {
    func of(_ figure: (Sample) -> Double?) -> Double? { median(samples.compactMap(figure)) }
    wall = of { $0.wall } ?? .nan
    cpu = of { $0.cpu } ?? .nan
    voluntary = of { $0.voluntary } ?? .nan
    involuntary = of { $0.involuntary } ?? .nan
    overflowCount = of { $0.outcome.overflowCount.map(Double.init) }
    resumptionsPerRecord = of { $0.outcome.resumptions.map { Double($0) / Double(max(records, 1)) } }
    p50 = of { $0.p50 }
    p99 = of { $0.p99 }
  }
}

/// Checks every run of `shape`: each loop received every value, and every row reached the same checksum.
func check(_ shape: Shape, _ samples: [[Sample]], records: Int) {
  let expected = shape.expected(records)
  var agreed: (variant: String, sum: Int)?
  for (row, runs) in zip(shape.rows, samples) {
    for run in runs {
      let outcome = run.outcome
      guard outcome.count == expected.count else {
        fail("\(shape.id) \(row.variant): received \(outcome.count) values of \(expected.count)")
      }
      if let sum = expected.sum, outcome.sum != sum {
        fail("\(shape.id) \(row.variant): checksum \(outcome.sum), expected \(sum)")
      }
      if let agreed, agreed.sum != outcome.sum {
        fail("\(shape.id) \(row.variant): checksum \(outcome.sum), but \(agreed.variant)'s is \(agreed.sum)")
      }
      agreed = agreed ?? (row.variant, outcome.sum)
      // A value is counted at most once, and only past the bound.
      if let overflow = outcome.overflowCount, overflow < 0 || overflow > max(0, records - bound) {
        fail("\(shape.id) \(row.variant): overflowCount \(overflow) out of 0…\(max(0, records - bound))")
      }
    }
  }
}

/// (e)'s exactness check: a thread sends while the loop takes nothing.
func checkOverflowIsExact(records: Int) async {
  let sent = max(min(records, 10_000), 2 * bound)
  let (counted, received, inOrder) = await overflowWhileTheLoopWaits(records: sent)
  guard received == sent, inOrder else {
    fail("e: the loop received \(received) of \(sent) values, in order: \(inOrder)")
  }
  guard counted == sent - bound else {
    fail("e: overflowCount \(counted) after \(sent) values sent while the loop waited; expected \(sent - bound)")
  }
  note("e: overflowCount is exact: \(counted) of \(sent) values sent while the loop took none (\(sent) − \(bound)).")
}

/// bounded ÷ `divisor`, the median of the ratios of the same repetition, for wall and CPU time.
func ratios(_ shape: Shape, _ samples: [[Sample]], _ divisor: String) -> (wall: Double?, cpu: Double?)? {
  guard let bounded = shape.rows.firstIndex(where: { $0.variant == "bounded" }),
    let other = shape.rows.firstIndex(where: { $0.variant == divisor })
  else { return nil }
  let pairs = zip(samples[bounded], samples[other])
  return (median(pairs.map { $0.wall / $1.wall }), median(pairs.map { $0.cpu / $1.cpu }))
}

let header = [
  "shape", "variant", "wall ns/record", "CPU ns/record", "vcsw/1k", "ivcsw/1k", "overflowCount", "resumptions/record",
  "p50 µs", "p99 µs",
]
if csv {
  // The ratio lines carry the ratio in the wall_ns and cpu_ns columns.
  print(
    "kind,pass,shape,variant,records,wall_ns,cpu_ns,vcsw_per_1k,ivcsw_per_1k,overflow_count,resumptions_per_record,"
      + "p50_us,p99_us")
}

func runPass(_ pass: String) async {
  note("")
  note("\(pass) pass (load average \(loadAverage()))")
  if !csv {
    print("")
    print("| " + header.joined(separator: " | ") + " |")
    print("| --- | --- |" + String(repeating: " ---: |", count: header.count - 2))
  }
  var ratioLines: [String] = []
  for shape in shapes {
    if shape.id == "e" { await checkOverflowIsExact(records: shape.records) }
    if !options.smoke {
      let warmUp = max(shape.records / 10, min(shape.records, 1000))
      for row in shape.rows { _ = await row.run(warmUp) }
    }
    var samples = [[Sample]](repeating: [], count: shape.rows.count)
    for repetition in 0..<options.repetitions {
      // Each repetition starts with another row, so that no row always runs first (or after the same one).
      for offset in shape.rows.indices {
        let index = (offset + repetition) % shape.rows.count
        let row = shape.rows[index]
        samples[index].append(await measure(records: shape.records) { await row.run(shape.records) })
      }
    }
    check(shape, samples, records: shape.records)
    for (row, runs) in zip(shape.rows, samples) {
      let m = Medians(runs, records: shape.records)
      let figures = [m.wall, m.cpu, m.voluntary, m.involuntary, m.overflowCount, m.resumptionsPerRecord, m.p50, m.p99]
      if csv {
        print(
          (["row", pass, shape.id, row.variant, String(shape.records)] + figures.map(plain)).joined(separator: ","))
      } else {
        print("| " + ([shape.id, row.variant] + figures.map(formatted)).joined(separator: " | ") + " |")
      }
    }
    for divisor in ["unbounded", "hand"] {
      guard let ratio = ratios(shape, samples, divisor) else { continue }
      if csv {
        print(
          ["ratio", pass, shape.id, "bounded/\(divisor)", String(shape.records), plain(ratio.wall), plain(ratio.cpu)]
            .joined(separator: ",") + String(repeating: ",", count: 6))
      } else {
        ratioLines.append(
          "| \(shape.id) | bounded ÷ \(divisor) | \(formatted(ratio.wall)) | \(formatted(ratio.cpu)) |")
      }
    }
    fflush(nil)
  }
  if !csv && !ratioLines.isEmpty {
    print("")
    print("Ratios within this process (\(pass)): the median of the same repetition's ratios.")
    print("")
    print("| shape | ratio | wall | CPU |")
    print("| --- | --- | ---: | ---: |")
    for line in ratioLines { print(line) }
  }
}

if !csv {
  print("")
  for shape in shapes { print("(\(shape.id)) \(shape.title)") }
}
if options.quiet { await runPass("quiet") }
if options.busy {
  let pid = BusyNeighbour.start()
  note("")
  note("busy neighbour: pid \(pid), sh -c 'while :; do :; done'")
  await runPass("busy")
  BusyNeighbour.stop()
}
note("")
note("done; load average \(loadAverage())")
