import AsyncSignals

/// What the race needs of a serial disposable; the library's and the broken twin's.
protocol SerialContainer: Disposable {
  var inner: (any Disposable)? { get set }
  func swap(_ disposable: (any Disposable)?) -> (any Disposable)?
}

extension SerialDisposable: SerialContainer {}

/// Concurrent swap / set / dispose on one `SerialDisposable` (guarantee 3, RAC's semantics: replacing does
/// not dispose the previous inner, `swap` hands it back).
///
/// Whoever gets an inner back from `swap` disposes it, so every inner ends disposed exactly once: by the
/// swapper, by the serial disposable's disposal, or at once when it came after that disposal. Setting
/// `inner` orphans the previous inner (it is neither handed back nor disposed): at most one per set.
struct SerialDisposableRace: Scenario {
  static let noDoubleDispose = "no inner is disposed twice (or handed back twice)"
  static let noLeak = "no inner leaked: every inner is handed back by swap or disposed"
  static let atOnce = "after dispose, a new inner is disposed at once and swap returns nil"
  static let emptyAfter = "inner is nil after dispose"

  let name = "SerialDisposable"
  let race = "swap, set and dispose (twice) on one serial disposable; some inners swap from their disposal"
  let invariants = [noDoubleDispose, noLeak, atOnce, emptyAfter]
  let sabotage = "a serial disposable that keeps its inner after disposal and accepts new ones without disposing"

  func threads(requested: Int) -> Int { max(2, requested) }

  func iterate(_ iteration: Iteration) {
    let serial: any SerialContainer = iteration.isSabotaged ? RetainingSerial() : SerialDisposable()
    let perThread = 24
    let probes = (0..<iteration.threads).map { _ in Owned<[Probe]>([]) }
    let extras = LockedBox<[Probe]>([])
    let sets = Tally()
    iteration.race { thread, random in
      let disposeAt = thread < 2 ? random.below(perThread + 1) : -1
      var operations = 0
      for index in 0...perThread {
        if index == disposeAt {
          serial.dispose()
          operations += 1
        }
        guard index < perThread else { break }
        let id = thread * 1_000 + index
        let probe: Probe
        if random.oneIn(8) {
          probe = Probe(id: id) { _ in
            let extra = Probe(id: -id)
            extras.withLock { $0.append(extra) }
            if let previous = serial.swap(extra) as? Probe {
              previous.handBack()
              previous.dispose()
            }
          }
        } else {
          probe = Probe(id: id)
        }
        probes[thread].value.append(probe)
        let wasDisposed = serial.isDisposed
        operations += 1
        if random.oneIn(8) {
          sets.increment()
          serial.inner = probe
        } else {
          let previous = serial.swap(probe)
          if let previous = previous as? Probe {
            previous.handBack()
            previous.dispose()
          }
          if wasDisposed {
            iteration.check(
              previous == nil, Self.atOnce, "swap on a disposed serial disposable handed back an inner")
          }
        }
        if wasDisposed {
          iteration.check(
            probe.disposeCount == 1, Self.atOnce,
            "inner \(id) given to a disposed serial disposable: disposed \(probe.disposeCount) times")
        }
        random.dawdle(1)
      }
      iteration.count(operations)
    }
    serial.dispose()
    iteration.check(serial.inner == nil, Self.emptyAfter, "an inner is still held after dispose returned")
    var unaccounted: [Int] = []
    for probe in probes.flatMap(\.value) + extras.value {
      iteration.check(
        probe.disposeCount <= 1 && probe.handBackCount <= 1, Self.noDoubleDispose,
        "inner \(probe.id) disposed \(probe.disposeCount) times, handed back \(probe.handBackCount) times")
      if probe.disposeCount == 0 && probe.handBackCount == 0 { unaccounted.append(probe.id) }
    }
    iteration.check(
      unaccounted.count <= sets.value, Self.noLeak,
      "\(unaccounted.count) inners neither handed back nor disposed, more than the \(sets.value) sets could orphan: "
        + "\(unaccounted.prefix(8))")
  }
}
