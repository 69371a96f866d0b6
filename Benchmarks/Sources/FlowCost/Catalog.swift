// The shapes and their rows: what each runs, at how many records, and what its loop must have received.

/// One way of running a shape: a library row (bounded, unbounded) or a baseline. `run` takes the records, so that the
/// warm-up can run fewer.
struct Row: Sendable {
  let variant: String
  let run: @Sendable (Int) async -> Outcome

  init(_ variant: String, _ run: @escaping @Sendable (Int) async -> Outcome) {
    self.variant = variant
    self.run = run
  }
}

struct Shape: Sendable {
  let id: String
  let title: String
  /// The records of a timed run.
  let records: Int
  let rows: [Row]
  /// The checksum every row's loop must reach for `n` records (nil: the rows need only agree), and the values it
  /// must receive.
  let expected: @Sendable (_ n: Int) -> (sum: Int?, count: Int)

  /// This shape with only the rows of `variants` (`nil`: all of them).
  func only(_ variants: [String]?) -> Shape {
    guard let variants else { return self }
    let kept = rows.filter { variants.contains($0.variant) }
    return Shape(id: id, title: title, records: records, rows: kept, expected: expected)
  }
}

let shapeIDs = ["a", "b", "c", "d", "e", "f", "g", "h"]

/// The time between two records of (g), in nanoseconds.
let latencyPeriod: UInt64 = 100_000

/// Shape `id`. `work` is the spin iterations of about 1 µs, for (h).
func makeShape(_ id: String, records: Int, latencyRecords: Int, parallelRecords: Int, work: Int) -> Shape {
  /// 0 + 1 + … + (n − 1): what the loops of (c) to (f) sum.
  let numbers: @Sendable (Int) -> (sum: Int?, count: Int) = { n in (n * (n - 1) / 2, n) }
  switch id {
  case "a":
    return Shape(
      id: id, title: "Signal.from(records) → subscribe(on: reader) → map → loop", records: records,
      rows: [
        Row("bounded") { await signalPipeline(records: $0, hop: false, bounded: true) },
        Row("unbounded") { await signalPipeline(records: $0, hop: false, bounded: false) },
        Row("hand") { await handStraight(Records(count: $0), { parse($0, 0) }) { $0.add(consume($1, 0)) } },
        Row("AsyncStream") { await streamStraight(Records(count: $0), { parse($0, 0) }) { $0.add(consume($1, 0)) } },
        Row("AsyncChannel") { await channelStraight(Records(count: $0), { parse($0, 0) }) { $0.add(consume($1, 0)) } },
      ],
      expected: { n in
        var sum = 0
        for record in Records(count: n) { sum &+= consume(parse(record, 0), 0) }
        return (sum, n)
      })
  case "b":
    return Shape(
      id: id, title: "(a) with a hop: reader → map → deliver(on: parser) → map → loop", records: records,
      rows: [
        Row("bounded") { await signalPipeline(records: $0, hop: true, bounded: true) },
        Row("unbounded") { await signalPipeline(records: $0, hop: true, bounded: false) },
        Row("hand") {
          await handHop(Records(count: $0), { parse($0, 0) }, { refine($0, 0) }) { $0.add(consume($1, 0)) }
        },
        Row("AsyncStream") {
          await streamHop(Records(count: $0), { parse($0, 0) }, { refine($0, 0) }) { $0.add(consume($1, 0)) }
        },
        Row("AsyncChannel") {
          await channelHop(Records(count: $0), { parse($0, 0) }, { refine($0, 0) }) { $0.add(consume($1, 0)) }
        },
      ],
      expected: { n in
        var sum = 0
        for record in Records(count: n) { sum &+= consume(refine(parse(record, 0), 0), 0) }
        return (sum, n)
      })
  case "c":
    return Shape(
      id: id, title: "Signal.from(0..<n).flattenMap(maxConcurrent: 4) { v in Signal.async { v } } → loop",
      records: records,
      rows: [
        Row("bounded") { await signalFlattenMap(records: $0, bounded: true) },
        Row("unbounded") { await signalFlattenMap(records: $0, bounded: false) },
        Row("TaskGroup") { await taskGroup(records: $0) },
      ],
      expected: numbers)
  case "d":
    return Shape(
      id: id, title: "Signal.async { for i in 0..<n { await subscriber.send(i) } } → loop", records: records,
      rows: [
        Row("bounded") { await signalAsyncSend(records: $0, bounded: true) },
        Row("unbounded") { await signalAsyncSend(records: $0, bounded: false) },
        Row("AsyncStream") { await streamStraight(0..<$0, { $0 }) { $0.add($1) } },
        Row("AsyncChannel") { await channelStraight(0..<$0, { $0 }) { $0.add($1) } },
      ],
      expected: numbers)
  case "e":
    return Shape(
      id: id, title: "Subject fed by sendNext from a Thread → loop in a detached task", records: records,
      rows: [
        Row("bounded") { await subjectFromThread(records: $0, bounded: true) },
        Row("unbounded") { await subjectFromThread(records: $0, bounded: false) },
        Row("AsyncStream") { await streamFromThread(records: $0) },
      ],
      expected: numbers)
  case "f":
    return Shape(
      id: id, title: "Subject fed by await send from a task (once the loop has seen startWith's sentinel) → loop",
      records: records,
      rows: [
        Row("bounded") { await subjectFromTask(records: $0, bounded: true) },
        Row("unbounded") { await subjectFromTask(records: $0, bounded: false) },
      ],
      expected: numbers)
  case "g":
    let paced: @Sendable (Int) -> PacedRecords = { PacedRecords(count: $0, period: latencyPeriod) }
    return Shape(
      id: id, title: "latency: one record every 100 µs through (b), producer's stamp to loop body",
      records: latencyRecords,
      rows: [
        Row("bounded") { await signalLatency(records: $0, period: latencyPeriod, bounded: true) },
        Row("unbounded") { await signalLatency(records: $0, period: latencyPeriod, bounded: false) },
        Row("hand") { n in
          await handHop(
            paced(n), { Stamped(index: $0.index &* 3, made: $0.made) }, { Stamped(index: $0.index &+ 1, made: $0.made) }
          ) { noteLatency(&$0, $1, n) }
        },
      ],
      expected: { n in (n * (n - 1) / 2 * 3 + n, n) })
  case "h":
    return Shape(
      id: id, title: "parallelism: (b) with about 1 µs of work in each stage (reader, parser, loop)",
      records: parallelRecords,
      rows: [
        Row("bounded") { await signalPipeline(records: $0, hop: true, bounded: true, work: work) },
        Row("unbounded") { await signalPipeline(records: $0, hop: true, bounded: false, work: work) },
        Row("hand") {
          await handHop(Records(count: $0), { parse($0, work) }, { refine($0, work) }) { $0.add(consume($1, work)) }
        },
      ],
      expected: { n in (nil, n) })
  default:
    fatalError("unknown shape \(id); one of \(shapeIDs.joined(separator: ", "))")
  }
}
