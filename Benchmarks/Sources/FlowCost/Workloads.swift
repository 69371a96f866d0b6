#if canImport(Glibc)
import Glibc
#endif

// What flows through the shapes: small records made one at a time, the stages' (nearly empty) work on them, and the
// calibrated spin that stands for about 1 µs of real work in (h).

/// A small record, as a parser would make from a line: two words, no allocation, so that what is measured is the
/// pipeline's cost per record, not the record's.
struct Record: Sendable {
  let index: Int
  let payload: Int
}

/// `count` records made one at a time as the walk asks for them: a `Sequence` that is not a `Collection`, as a file's
/// lines are (FlowMemory's `Lines`, without the strings). `Signal.from` can only walk it, never index or count it.
struct Records: Sequence, Sendable {
  let count: Int

  struct Iterator: IteratorProtocol {
    let count: Int
    var index = 0

    mutating func next() -> Record? {
      guard index < count else { return nil }
      defer { index += 1 }
      return Record(index: index, payload: index &* 7 &+ 3)
    }
  }

  func makeIterator() -> Iterator { Iterator(count: count) }
}

/// A record with the time its producer made it (`monotonicNanoseconds()`), for the latency shape (g).
struct Stamped: Sendable {
  let index: Int
  let made: UInt64
}

/// `count` stamped records, each made `period` nanoseconds after the previous one was made (plus the kernel's timer
/// slack): a slow producer, such as a sensor, whose reader thread sleeps between records. Pacing from the previous
/// record rather than from a fixed schedule means that an oversleep never makes a burst, which would measure queueing
/// rather than the path of one value.
struct PacedRecords: Sequence, Sendable {
  let count: Int
  let period: UInt64

  struct Iterator: IteratorProtocol {
    let count: Int
    let period: UInt64
    var index = 0
    var previous: UInt64 = 0

    mutating func next() -> Stamped? {
      guard index < count else { return nil }
      if index > 0 { sleep(until: previous &+ period) }
      previous = monotonicNanoseconds()
      defer { index += 1 }
      return Stamped(index: index, made: previous)
    }
  }

  func makeIterator() -> Iterator { Iterator(count: count, period: period) }
}

/// Sleeps until `deadline` on the monotonic clock.
func sleep(until deadline: UInt64) {
  var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
  while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
}

// The stages. Each takes `work`, the spin iterations of (h) (0 elsewhere), so that the library's rows and the
// baselines run exactly the same code per record. The arithmetic makes every row's checksum depend on every record.

/// The first stage, on the reader's thread: a record to a number.
@inline(__always)
func parse(_ record: Record, _ work: Int) -> Int {
  let value = record.payload &+ record.index
  return work == 0 ? value : spin(work, value)
}

/// The second stage, after the hop in (b) and (h).
@inline(__always)
func refine(_ value: Int, _ work: Int) -> Int {
  let refined = value &* 3
  return work == 0 ? refined : spin(work, refined)
}

/// The loop body's work on a value.
@inline(__always)
func consume(_ value: Int, _ work: Int) -> Int {
  work == 0 ? value : spin(work, value)
}

/// `iterations` steps of xorshift from `seed`: work that the optimiser can neither remove (the result depends on both
/// arguments and is used) nor shorten (each step depends on the previous one, and xorshift has no closed form).
@inline(never)
func spin(_ iterations: Int, _ seed: Int) -> Int {
  var state = UInt64(bitPattern: Int64(seed))
  for _ in 0..<iterations {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
  }
  return Int(truncatingIfNeeded: state)
}

/// Keeps `value` alive for the optimiser: a call it cannot see through.
@_optimize(none)
func blackHole(_ value: Int) {}

/// The spin iterations that take about `nanoseconds` on this machine: the fastest of a few timings of a long spin,
/// so that a timing the scheduler interrupted does not count. Run before the busy neighbour starts.
func calibrateSpin(nanoseconds: Double) -> (iterations: Int, nanosecondsPerIteration: Double) {
  let probe = 1_000_000
  var fastest = Double.infinity
  for round in 0..<7 {
    let start = monotonicNanoseconds()
    blackHole(spin(probe, round &+ 12345))
    fastest = min(fastest, Double(monotonicNanoseconds() - start) / Double(probe))
  }
  return (max(1, Int((nanoseconds / fastest).rounded())), fastest)
}
