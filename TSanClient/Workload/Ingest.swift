import AsyncSignalsInterop
import Foundation

/// What the ingest service is handed: one record per id, in id order.
struct Record: Sendable {
  let id: Int
  let payload: String
}

/// The ingest service: records walked off a sequence on one queue, parsed there, handed to a second queue, then
/// stored four at a time by async work, read by a bounded loop. Its producers pause while the loop is 64 behind.
enum Ingest {
  /// The hop pipeline read in order: `subscribe(on:)`, `map`, `deliver(on:)` keep the source's order, so the loop
  /// must see every id of `0..<count`, once, in that order.
  static func ordered(count: Int) async -> [String] {
    let source = Signal<Int, Never>.from(0..<count)
    let parsed =
      source
      .subscribe(on: QueueScheduler(name: "ingest.read"))
      .map { id in Record(id: id, payload: "record-\(id)") }
      .deliver(on: QueueScheduler(name: "ingest.store"))
    var expected = 0
    var problems: [String] = []
    for await record in parsed.values(bufferingPolicy: .bounded(64)) {
      if record.id != expected || record.payload != "record-\(expected)" {
        problems.append("ordered: expected record \(expected), got \(record.id) (\(record.payload))")
        if problems.count > 5 { break }
      }
      expected = record.id + 1
    }
    if problems.isEmpty && expected != count {
      problems.append("ordered: the loop ended after \(expected) of \(count)")
    }
    return problems
  }

  /// The same hops, then `flattenMap(maxConcurrent: 4)` into `Signal.async` bodies that each `await send` two
  /// values. Inners interleave, so the loop sees each id's two values once, the first before the second.
  static func stored(count: Int, sabotage: Sabotage?) async -> [String] {
    let store =
      Signal<Int, Never>.from(0..<count)
      .subscribe(on: QueueScheduler(name: "ingest.read"))
      .map { id in Record(id: id, payload: "record-\(id)") }
      .deliver(on: QueueScheduler(name: "ingest.store"))
      .flattenMap(maxConcurrent: 4) { record in
        Signal<Int, Never>.async { subscriber in
          await sabotage?.touch()
          await subscriber.send(record.id)  // "stored"
          await subscriber.send(count + record.id)  // "acknowledged"
        }
      }
    var seen = [UInt8](repeating: 0, count: count)  // 0: nothing yet, 1: stored, 2: stored and acknowledged
    var problems: [String] = []
    var received = 0
    for await value in store.values(bufferingPolicy: .bounded(64)) {
      received += 1
      let id = value % count
      let step: UInt8 = value < count ? 1 : 2
      if value < 0 || value >= 2 * count || seen[id] != step - 1 {
        problems.append("stored: value \(value) arrived after step \(seen[min(max(id, 0), count - 1)]) of its record")
        if problems.count > 5 { break }
        continue
      }
      seen[id] = step
    }
    if problems.isEmpty {
      let missing = seen.indices.filter { seen[$0] != 2 }
      if !missing.isEmpty {
        problems.append(
          "stored: \(missing.count) of \(count) records incomplete (first: \(missing[0])); \(received) values")
      }
    }
    return problems
  }
}
