import AsyncSignals
import AsyncSignalsInterop
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// Issue 28, item 4: the peak memory of the user's shapes, each fed faster than its `.bounded(4)` loop takes
// elements.
//
// N lines of about 60 bytes go through one of five shapes into a `for await` loop over
// `values(bufferingPolicy: .bounded(4))` that does a little work per element (a checksum of the bytes of each line)
// and is slower than the source:
//
// - `straight`: `Signal.from` a line source (a blocking generator, moved off the loop's thread with
//   `subscribe(on: QueueScheduler(name: "reader"))`, as Getting Started asks), a parsing `map`, a `filter` and a
//   `map`, `buffer(count: 1000)`: the loop reads batches. The shape part 1 bounded at cf64ae7: the control.
// - `hop`: the same with one `deliver(on: QueueScheduler(name: "parser"))` between the reader and the parsing map.
// - `maxConcurrent`: the lines through `flattenMap(maxConcurrent: 4) { line in Signal.async { … } }`, each inner a
//   little async work (a yield, then the parse), one element per line.
// - `await`: a subject fed by a task with `await subject.send(line)`, which waits while the loop has no room.
// - `thread`: a subject fed by a plain thread with `subject.sendNext(line)`, which never waits: what the loop has not
//   read yet is buffered (and counted in `overflowCount`), so memory grows with the backlog.
// - `actor` and `mainActor` (ActorShapes.swift): no loop; the parsed lines into a slow actor with
//   `subscribeNext(isolatedTo:bufferingPolicy: .bounded(64))`, and into the main actor with
//   `subscribeNext(onMainActor:bufferingPolicy: .bufferingNewest(1))`. They print the subscription's
//   `overflowCount`, `droppedCount` and `highWaterMark` in place of the loop's wait, and look at the heap once per
//   1,000 lines the source sent.
//
// Each run is a process of its own, so that its peak resident memory (VmHWM) is its own. It prints the peak above
// what the process held when the feed started; the most heap in use above the start (glibc's `malloc_info`, looked
// at once per 1,000 lines the loop reads: what the program holds, without most of the allocator's free memory);
// `overflowCount` (elements the loop's buffer took beyond its 4: batches for straight and hop, lines for the
// others); and the share of the run the loop spent waiting for its next element (low: the loop, not the source, set
// the pace; under flow control it includes the time a paused source takes to resume and refill the loop).
//
//   swift run -c release --package-path Benchmarks FlowMemory                       # every shape, 1M and 3M
//   swift run -c release --package-path Benchmarks FlowMemory --shape hop           # one shape, 1M and 3M
//   swift run -c release --package-path Benchmarks FlowMemory --shape hop --lines 3000000   # one run, in-process
//
// Built with `-D FLOWMEMORY_CF64AE7`, it compiles against the library as it was at cf64ae7, before part 2 of flow
// control: `flatten(maxConcurrent:)` after a `map` stands for `flattenMap(maxConcurrent:)`, and the `await` shape
// is not available (`await subject.send` did not exist). Built with `-D FLOWMEMORY_23494CC`, against 23494cc, before
// bounded delivery into an actor. In both, the actor shapes use the unbounded delivery those commits have.
// Benchmarks/flowmemory-baseline.sh builds it so (`DEFINE=FLOWMEMORY_23494CC` for the second).
//
// Linux only (it reads /proc/self/status).

/// A field of /proc/self/status in kB (`VmRSS`, `VmHWM`), or 0.
func status(_ field: String) -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
    return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
  }
  return 0
}

/// The heap the program holds, from glibc's `malloc_info`: what the arenas hold from the system less their free
/// chunks, plus mmapped chunks. An upper bound: each arena's unused top (up to its trim threshold) counts as held.
/// 0 where `malloc_info` is missing.
func heapInUse() -> Int {
  typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
  guard let symbol = dlsym(nil, "malloc_info") else { return 0 }
  var buffer: UnsafeMutablePointer<CChar>? = nil
  var length = 0
  guard let file = open_memstream(&buffer, &length) else { return 0 }
  _ = unsafeBitCast(symbol, to: MallocInfo.self)(0, file)
  fclose(file)
  defer { free(buffer) }
  guard let buffer else { return 0 }
  // The totals follow the last </heap>: <total type="fast|rest|mmap" … size=…/>, <system type="current" …/>.
  let text = String(cString: buffer)
  guard let totals = text.range(of: "</heap>", options: .backwards).map({ text[$0.upperBound...] }) else { return 0 }
  func size(_ tag: String) -> Int {
    guard let start = totals.range(of: tag)?.upperBound,
      let sizeStart = totals[start...].range(of: "size=\"")?.upperBound
    else { return 0 }
    return Int(totals[sizeStart...].prefix { $0.isNumber }) ?? 0
  }
  return size("<system type=\"current\"") - size("<total type=\"fast\"") - size("<total type=\"rest\"")
    + size("<total type=\"mmap\"")
}

/// Line `index`: about 60 bytes, made fresh for each send.
func line(_ index: Int) -> String {
  var text = "2026-11-27T15:00:00Z worker-7 INFO request "
  text += String(index)
  while text.utf8.count < 60 { text += "." }
  return text
}

/// The lines of a log, made one at a time as the walk asks for them: a blocking reader, as a file's would be.
struct Lines: Sequence, Sendable {
  let count: Int

  func makeIterator() -> AnyIterator<String> {
    var index = 0
    return AnyIterator {
      guard index < count else { return nil }
      defer { index += 1 }
      return line(index)
    }
  }
}

/// A parsed line.
struct Record: Sendable {
  let level: Substring
  let worker: Substring
  let request: Int
  let line: String

  init(parsing line: String) {
    // The fields between the first four spaces, and the digits after the fourth.
    let bytes = line.utf8
    var spaces: [String.Index] = []
    var index = bytes.startIndex
    while index < bytes.endIndex, spaces.count < 4 {
      if bytes[index] == UInt8(ascii: " ") { spaces.append(index) }
      bytes.formIndex(after: &index)
    }
    worker = spaces.count > 1 ? line[line.index(after: spaces[0])..<spaces[1]] : ""
    level = spaces.count > 2 ? line[line.index(after: spaces[1])..<spaces[2]] : ""
    var request = 0
    if spaces.count == 4 {
      for byte in line[spaces[3]...].utf8.dropFirst() {
        guard byte >= 48 && byte <= 57 else { break }
        request = request &* 10 &+ Int(byte - 48)
      }
    }
    self.request = request
    self.line = line
  }
}

/// A little work per line.
func checksum(_ line: String, rounds: Int = 4) -> Int {
  var sum = 0
  for _ in 0..<rounds {
    for byte in line.utf8 { sum = sum &* 31 &+ Int(byte) }
  }
  return sum
}

/// The loops' work per line, in checksum rounds (a round: about 0.13 µs on the machine of the README's table). The
/// straight and hop loops take about 4 µs a line, some 4 times what their source takes; the maxConcurrent loop about
/// 25 µs, more than the task and the hops each inner costs.
let lineRounds = 32
let asyncRounds = 200

let shapes = ["straight", "hop", "maxConcurrent", "await", "thread", "actor", "mainActor"]

func label(_ shape: String) -> String { shape.padding(toLength: 14, withPad: " ", startingAt: 0) }

/// What a loop read.
struct Reading {
  var total = 0
  var count = 0
  var waited: Duration = .zero
  /// The most `heapInUse()` found, looking once per 1,000 lines read.
  var heapPeak = 0
}

/// Reads `values` to its end, `work` per element, timing the waits for the next element.
func read<Element>(_ values: SignalSequence<Element, Never>, _ work: (Element) -> (sum: Int, count: Int)) async
  -> Reading
{
  var reading = Reading()
  var iterator = values.makeAsyncIterator()
  let clock = ContinuousClock()
  var nextLook = 0
  while true {
    let asked = clock.now
    guard let element = await iterator.next() else { break }
    reading.waited += clock.now - asked
    let (sum, count) = work(element)
    reading.total &+= sum
    reading.count += count
    if reading.count >= nextLook {
      reading.heapPeak = max(reading.heapPeak, heapInUse())
      nextLook += 1000
    }
  }
  return reading
}

/// What the straight and hop pipelines keep of a record.
struct Entry: Sendable {
  let request: Int
  let line: String
}

/// The user's parsing stages, one in one out (every line is at level INFO), then batches of 1,000.
func parsed(_ lines: Signal<String, Never>) -> Signal<[Entry], Never> {
  lines
    .map { Record(parsing: $0) }
    .filter { $0.level == "INFO" }
    .map { Entry(request: $0.request, line: $0.line) }
    .buffer(count: 1000)
}

func sumBatch(_ batch: [Entry]) -> (sum: Int, count: Int) {
  var sum = 0
  for entry in batch { sum &+= checksum(entry.line, rounds: lineRounds) &+ entry.request }
  return (sum, batch.count)
}

/// Runs `shape` with `lines` lines; nil for a shape this build cannot run.
func measure(shape: String, lines: Int) async -> String? {
  let startRSS = status("VmRSS")
  let startHeap = heapInUse()
  let started = ContinuousClock.now
  let reading: Reading
  var overflowCount = 0
  // The actor shapes' counts, in place of the loop's wait; `actorShape` without counts: an unbounded build.
  var boundCounts: BoundCounts?
  var actorShape = false
  switch shape {
  case "straight", "hop":
    let reader = Signal<String, Never>.from(Lines(count: lines)).subscribe(on: QueueScheduler(name: "reader"))
    let batches = parsed(shape == "hop" ? reader.deliver(on: QueueScheduler(name: "parser")) : reader)
    let values = batches.values(bufferingPolicy: .bounded(4))
    reading = await read(values, sumBatch)
    overflowCount = values.overflowCount
  case "maxConcurrent":
    let source = Signal<String, Never>.from(Lines(count: lines)).subscribe(on: QueueScheduler(name: "reader"))
    let parse: @Sendable (String) -> Signal<Record, Never> = { line in
      Signal.async { () async -> Record in
        await Task.yield()  // a little async work
        return Record(parsing: line)
      }
    }
    #if FLOWMEMORY_CF64AE7
    let records = source.map(parse).flatten(maxConcurrent: 4)
    #else
    let records = source.flattenMap(maxConcurrent: 4, parse)
    #endif
    let values = records.values(bufferingPolicy: .bounded(4))
    reading = await read(values) { (record: Record) in
      (checksum(record.line, rounds: asyncRounds) &+ record.request, 1)
    }
    overflowCount = values.overflowCount
  case "await", "thread":
    let subject = Subject<String, Never>()
    let values = subject.values(bufferingPolicy: .bounded(4))
    if shape == "await" {
      #if FLOWMEMORY_CF64AE7
      return nil  // no `await subject.send` at cf64ae7
      #else
      Task.detached {
        while subject.subscriberCount == 0 { await Task.yield() }  // until the loop below has subscribed
        for index in 0..<lines { await subject.send(line(index)) }
        subject.sendCompleted()
      }
      #endif
    } else {
      Thread {
        while subject.subscriberCount == 0 { sched_yield() }
        for index in 0..<lines { subject.sendNext(line(index)) }
        subject.sendCompleted()
      }.start()
    }
    reading = await read(values) { text in (checksum(text), 1) }
    overflowCount = values.overflowCount
  case "actor", "mainActor":
    let (delivery, counts) = shape == "actor" ? await intoActor(lines: lines) : await intoMainActor(lines: lines)
    reading = Reading(total: delivery.total, count: delivery.count, heapPeak: delivery.heapPeak)
    (boundCounts, actorShape) = (counts, true)
  default:
    fatalError("unknown shape \(shape); one of \(shapes.joined(separator: ", "))")
  }
  let elapsed = ContinuousClock.now - started
  let peak = status("VmHWM")
  func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
  let counts: String
  if let boundCounts {
    counts = "overflowCount \(boundCounts.overflow), droppedCount \(boundCounts.dropped), "
      + "highWaterMark \(boundCounts.highWaterMark), " + String(format: "%.2f s", seconds(elapsed))
  } else if actorShape {
    counts = "unbounded (no counts), " + String(format: "%.2f s", seconds(elapsed))
  } else {
    counts = String(
      format: "overflowCount %d, %.2f s, loop waited %.0f %%", overflowCount, seconds(elapsed),
      100 * seconds(reading.waited) / max(seconds(elapsed), 1e-9))
  }
  return label(shape)
    + String(
      format: "%9d lines: peak %7.1f MB above the start (%.1f MB at the start), heap in use %6.1f MB, %d read, ",
      lines, Double(peak - startRSS) / 1024, Double(startRSS) / 1024,
      Double(reading.heapPeak - startHeap) / 1_048_576, reading.count)
    + counts + " (checksum \(reading.total))"
}

let arguments = CommandLine.arguments
func argument(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    usage: FlowMemory [--shape SHAPE] [--lines N]
      SHAPE: \(shapes.joined(separator: ", ")) (default: all); N: lines (default: 1000000 and 3000000)
      with both, one run in this process; otherwise each run in a process of its own
    """)
  exit(0)
}
let shape = argument("--shape") ?? argument("--producer")  // --producer: the name of the first version's option
let lines = argument("--lines").flatMap(Int.init)
if let shape, !shapes.contains(shape) {
  print("unknown shape \(shape); one of \(shapes.joined(separator: ", "))")
  exit(2)
}
if let shape, let lines {
  print(await measure(shape: shape, lines: lines) ?? label(shape) + "(not in this build)")
} else {
  // Each run in a process of its own.
  for lines in lines.map({ [$0] }) ?? [1_000_000, 3_000_000] {
    for shape in shape.map({ [$0] }) ?? shapes {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/proc/self/exe")  // this program
      process.arguments = ["--shape", shape, "--lines", String(lines)]
      try process.run()
      process.waitUntilExit()
    }
  }
}
