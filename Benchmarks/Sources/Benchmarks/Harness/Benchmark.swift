// The registry of workloads, in the manner of swift-collections' benchmark-tool: each hot path lives in its own
// file as an `extension Benchmark { mutating func add…Benchmarks() }` that writes the workload once per library,
// and main.swift calls those functions in order.

/// A library compared in the benchmarks; each is its own module, as a user gets it.
enum Library: String, Codable, CaseIterable {
  /// A plain-Swift loop doing the same arithmetic through the same closures: the floor of every row.
  case floor = "plain Swift"
  case asyncSignals = "AsyncSignals"
  case openCombine = "OpenCombine"
  case asyncStream = "AsyncStream"
  case asyncChannel = "AsyncChannel"
}

/// What a workload's rows report.
enum Measure: String, Codable {
  /// Nanoseconds per operation (median of the repetitions), with allocations per operation alongside.
  case time
  /// Allocations per operation, counted by the malloc interposer on the benchmark thread.
  case allocations
  /// Bytes per operation, which the row measures itself (live bytes, with the interposer's byte tracking).
  case bytes
}

/// The work of one row for `size` items. Returns a checksum, which must be the same for every row of a workload.
enum Body {
  case sync((Int) -> Int)
  case async(@Sendable (Int) async -> Int)
  /// Returns the checksum and the bytes per operation it measured.
  case bytes((Int) -> (checksum: Int, bytesPerOperation: Double))
}

/// One library's version of a workload.
struct Row {
  let library: Library
  /// Which variant of the library's API the row uses ("create", "values(.unbounded)", …), or empty.
  let variant: String
  /// Whether work happens on other threads too: the interposer then sees only part of the allocations.
  let threaded: Bool
  /// Whether the row may drop values by design (a bounded buffering policy): its checksum is not compared.
  let lossy: Bool
  /// Whether the other rows' ratios are taken against this one (default: the first AsyncSignals row).
  let isBaseline: Bool
  /// A smaller size for this row only, where the library is quadratic in it (its time per operation then
  /// grows with the size: the row is flattered, not penalised).
  let maxSize: Int?
  let body: Body

  var name: String {
    let name = variant.isEmpty ? library.rawValue : "\(library.rawValue) \(variant)"
    let capped = maxSize.map { "\(name) (n ≤ \($0))" } ?? name
    return lossy ? capped + " (lossy)" : capped
  }
}

/// A target from the issue, for the AsyncSignals rows of a workload.
struct Target: Codable {
  /// The bar: AsyncSignals' median must be at most this, in the workload's unit — or, with `relativeTo`, this
  /// multiple of that row's median.
  let atMost: Double
  /// Where it comes from, for the table.
  let note: String
  /// The name of the row the target is relative to, if it is.
  var relativeTo: String? = nil
}

/// One workload: the same work and size for every library.
struct Workload {
  let id: String
  let title: String
  /// What one operation is ("send", "event", "delivery", "round", …).
  let unit: String
  let measure: Measure
  let size: Int
  /// The size in `--smoke` mode: tiny, so that CI only checks that everything runs and agrees.
  let smokeSize: Int
  /// Operations per item of `size` (B9: deliveries per send).
  let operationsPerItem: Int
  let target: Target?
  /// The checksum every row must return for `size` items, if it is known in closed form.
  let expected: ((Int) -> Int)?
  var rows: [Row] = []
}

/// The registry. `add…Benchmarks()` functions fill it; `main()` runs it.
struct Benchmark {
  var workloads: [Workload] = []

  /// Registers a workload; rows are added with `add(_:_:variant:threaded:_:)`, here or in a later file.
  mutating func workload(
    _ id: String, _ title: String, unit: String, measure: Measure = .time, size: Int, smokeSize: Int? = nil,
    operationsPerItem: Int = 1, target: Target? = nil, expected: ((Int) -> Int)? = nil
  ) {
    precondition(!workloads.contains { $0.id == id }, "Benchmark.workload: \(id) is registered twice")
    workloads.append(
      Workload(
        id: id, title: title, unit: unit, measure: measure, size: size,
        smokeSize: smokeSize ?? max(1, size / 1000), operationsPerItem: operationsPerItem, target: target,
        expected: expected))
  }

  /// Adds a library's row to the workload `id`.
  mutating func add(
    _ id: String, _ library: Library, variant: String = "", threaded: Bool = false, lossy: Bool = false,
    isBaseline: Bool = false, maxSize: Int? = nil, _ body: Body
  ) {
    guard let index = workloads.firstIndex(where: { $0.id == id }) else {
      preconditionFailure("Benchmark.add: no workload \(id); register it with workload(_:_:…) first")
    }
    workloads[index].rows.append(
      Row(
        library: library, variant: variant, threaded: threaded, lossy: lossy, isBaseline: isBaseline,
        maxSize: maxSize, body: body))
  }

  /// Adds a synchronous row.
  mutating func add(
    _ id: String, _ library: Library, variant: String = "", threaded: Bool = false, maxSize: Int? = nil,
    _ body: @escaping (Int) -> Int
  ) {
    add(id, library, variant: variant, threaded: threaded, maxSize: maxSize, .sync(body))
  }
}

/// The sum 0 + 1 + … + (n - 1), the checksum of most workloads.
func triangle(_ n: Int) -> Int { n &* (n &- 1) / 2 }
