import AsyncSignals

/// What the race needs of a compound disposable; the library's and the broken twin's.
protocol DisposableContainer: Disposable {
  func add(_ disposable: (any Disposable)?)
  func remove(_ disposable: (any Disposable)?)
  /// `add` with the probe's concrete type, which reaches `CompoundDisposable`'s generic overload.
  func add(probe: Probe)
  /// `remove` with the probe's concrete type (the generic overload).
  func remove(probe: Probe)
}

extension CompoundDisposable: DisposableContainer {
  func add(probe: Probe) { add(probe) }
  func remove(probe: Probe) { remove(probe) }
}

/// Concurrent add / remove / dispose on one `CompoundDisposable` (guarantee 3).
///
/// Every thread adds probes (which count every `dispose()` call), removes some of them again, and two threads
/// dispose the compound at random moments. Some probes re-enter the compound from their own disposal (remove
/// themselves, add a new child) to check that children are disposed outside the lock. Adds and removes take either
/// of `CompoundDisposable`'s overloads at random: the `any Disposable` one (through the protocol) and the generic
/// one (with the probe's concrete type).
struct CompoundDisposableRace: Scenario {
  static let exactlyOnce = "every child added is disposed exactly once"
  static let removedNever = "a child removed before disposal is never disposed"
  static let addAfterDispose = "adding after dispose disposes the child at once"

  let name = "CompoundDisposable"
  let race = "add, remove and dispose (twice) on one compound; some children re-enter it"
  let invariants = [exactlyOnce, removedNever, addAfterDispose]
  let sabotage = "a compound that does not clear its children when disposed and keeps accepting new ones"

  func threads(requested: Int) -> Int { max(2, requested) }

  private struct Record {
    let probe: Probe
    var removed = false
    var removedBeforeDispose = false
  }

  func iterate(_ iteration: Iteration) {
    let compound: any DisposableContainer =
      iteration.isSabotaged ? DoubleDisposingCompound() : CompoundDisposable()
    let perThread = 24
    let records = (0..<iteration.threads).map { _ in Owned<[Record]>([]) }
    let extras = LockedBox<[Probe]>([])
    iteration.race { thread, random in
      let disposeAt = thread < 2 ? random.below(perThread + 1) : -1
      var operations = 0
      for index in 0..<perThread {
        if index == disposeAt {
          compound.dispose()
          operations += 1
        }
        let id = thread * 1_000 + index
        let probe: Probe
        if random.oneIn(6) {
          probe = Probe(id: id) { probe in
            compound.remove(probe)
            let extra = Probe(id: -id)
            extras.withLock { $0.append(extra) }
            compound.add(extra)
          }
        } else {
          probe = Probe(id: id)
        }
        let wasDisposed = compound.isDisposed
        if random.oneIn(2) { compound.add(probe) } else { compound.add(probe: probe) }
        operations += 1
        if wasDisposed {
          iteration.check(
            probe.disposeCount == 1, Self.addAfterDispose,
            "child \(id) added to a disposed compound: disposed \(probe.disposeCount) times when add returned")
        }
        var record = Record(probe: probe)
        if random.oneIn(3) {
          random.dawdle(2)
          if random.oneIn(2) { compound.remove(probe) } else { compound.remove(probe: probe) }
          operations += 1
          record.removed = true
          record.removedBeforeDispose = !compound.isDisposed
        }
        records[thread].value.append(record)
      }
      if disposeAt == perThread {
        compound.dispose()
        operations += 1
      }
      iteration.count(operations)
    }
    compound.dispose()
    for record in records.flatMap(\.value) {
      let count = record.probe.disposeCount
      if record.removedBeforeDispose {
        iteration.check(
          count == 0, Self.removedNever, "child \(record.probe.id) was removed, then disposed \(count) times")
      } else if record.removed {
        iteration.check(
          count <= 1, Self.exactlyOnce, "child \(record.probe.id) (removed during disposal) disposed \(count) times")
      } else {
        iteration.check(count == 1, Self.exactlyOnce, "child \(record.probe.id) disposed \(count) times")
      }
    }
    for extra in extras.value {
      iteration.check(
        extra.disposeCount == 1, Self.exactlyOnce,
        "child \(extra.id), added from a disposal, disposed \(extra.disposeCount) times")
    }
  }
}
