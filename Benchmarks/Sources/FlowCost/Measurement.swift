import Foundation

#if canImport(Glibc)
import Glibc
#endif

// How a row is measured: wall time on the monotonic clock, and `getrusage(RUSAGE_SELF)` before and after — the CPU
// time and context switches of every thread of this process (the busy neighbour is a process of its own, so none of
// its time counts), per record.

/// The monotonic clock in nanoseconds: cheap, and comparable between threads, so a producer's stamp can be subtracted
/// from a consumer's.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// What `getrusage(RUSAGE_SELF)` counts for the whole process so far.
struct Usage {
  var cpuNanoseconds: Int
  var voluntarySwitches: Int
  var involuntarySwitches: Int

  static func now() -> Usage {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func nanoseconds(_ time: timeval) -> Int { time.tv_sec * 1_000_000_000 + time.tv_usec * 1000 }
    return Usage(
      cpuNanoseconds: nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime),
      voluntarySwitches: usage.ru_nvcsw, involuntarySwitches: usage.ru_nivcsw)
  }
}

/// What one run of a row returns: the checksum of what its loop received, and what the row can say about itself.
struct Outcome: Sendable {
  /// The sum of what the loop body computed, wrapping; every row of a shape must agree.
  var sum = 0
  /// How many values the loop received (not counting a sentinel).
  var count = 0
  /// A bounded row's `overflowCount`.
  var overflowCount: Int?
  /// How often the source resumed after a pause, where a row can count it.
  var resumptions: Int?
  /// (g): for each value, nanoseconds from its producer's stamp to the loop body.
  var latencies: [UInt64] = []

  @inline(__always)
  mutating func add(_ value: Int) {
    sum &+= value
    count += 1
  }
}

/// One timed run of a row, per record.
struct Sample {
  var wall: Double
  var cpu: Double
  /// Voluntary and involuntary context switches per 1,000 records.
  var voluntary: Double
  var involuntary: Double
  var outcome: Outcome
  /// (g): the median and 99th percentile of the latencies, in microseconds.
  var p50: Double?
  var p99: Double?
}

/// Runs `body` once and measures it, per record of `records`.
func measure(records: Int, _ body: () async -> Outcome) async -> Sample {
  let before = Usage.now()
  let start = monotonicNanoseconds()
  let outcome = await body()
  let wall = monotonicNanoseconds() - start
  let after = Usage.now()
  let perRecord = Double(max(records, 1))
  var sample = Sample(
    wall: Double(wall) / perRecord,
    cpu: Double(after.cpuNanoseconds - before.cpuNanoseconds) / perRecord,
    voluntary: Double(after.voluntarySwitches - before.voluntarySwitches) * 1000 / perRecord,
    involuntary: Double(after.involuntarySwitches - before.involuntarySwitches) * 1000 / perRecord,
    outcome: outcome)
  if !outcome.latencies.isEmpty {
    let sorted = outcome.latencies.sorted()
    sample.p50 = percentile(sorted, 0.50) / 1000
    sample.p99 = percentile(sorted, 0.99) / 1000
  }
  return sample
}

/// The `fraction` percentile of `sorted` (nearest rank).
func percentile(_ sorted: [UInt64], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  let rank = Int((fraction * Double(sorted.count)).rounded(.up))
  return Double(sorted[min(max(rank, 1), sorted.count) - 1])
}

/// The median of `values` (the mean of the middle two for an even count); nil when empty.
func median(_ values: [Double]) -> Double? {
  guard !values.isEmpty else { return nil }
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// `value` to three significant figures, with thousands separators, as the README's tables show numbers: 1,506; 39.9;
/// 1.02; 0.134.
func formatted(_ value: Double?) -> String {
  guard let value, value.isFinite else { return "" }
  let magnitude = abs(value)
  if value == 0 { return "0" }
  if magnitude >= 999.5 { return grouped(Int(value.rounded())) }
  let decimals = magnitude >= 99.95 ? 0 : magnitude >= 9.995 ? 1 : magnitude >= 0.9995 ? 2 : 3
  return String(format: "%.\(decimals)f", value)
}

/// `value` with thousands separators: 1,000,000.
func grouped(_ value: Int) -> String {
  let digits = String(value.magnitude)
  var text = value < 0 ? "-" : ""
  for (offset, digit) in digits.enumerated() {
    if offset > 0 && (digits.count - offset) % 3 == 0 { text += "," }
    text.append(digit)
  }
  return text
}

/// A number for the CSV lines: six significant figures, no separators; empty when there is none.
func plain(_ value: Double?) -> String {
  guard let value, value.isFinite else { return "" }
  return String(format: "%.6g", value)
}
