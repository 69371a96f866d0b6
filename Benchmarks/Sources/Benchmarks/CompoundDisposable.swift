import AsyncSignals
import OpenCombine

// B12: CompoundDisposable.
//
// B12   add then dispose: a new compound, one new child with an action, the compound disposed (the action runs)
// B12b  add / remove churn: one long-lived compound; the same child added and removed again
// W6a   issue 21: a new compound per round, 10 fresh children with an action each added to it, then disposed
//       (every action runs); per child
// W6b   issue 21: one long-lived compound; per cycle a fresh child with an action (a closure with a context, as a
//       user's `ActionDisposable { task.cancel() }` has) is created, added and removed again, as RAC's
//       `addDisposable:` / `removeDisposable:` pair around a piece of work. B12b re-adds one prebuilt child,
//       which is not the shape user code has.
//
// OpenCombine has no compound disposable; its idiom is a `Set<AnyCancellable>` (`store(in:)`), cancelled and
// emptied, or with the cancellable removed again. The floor is an array of closures. A removed `AnyCancellable`
// cancels itself when it is released (W6b), a removed `ActionDisposable` does not: W6b's actions add to a tally
// that is not the checksum, so that every row returns the same sum.

extension Benchmark {
  mutating func addCompoundDisposableBenchmarks() {
    workload(
      "B12", "CompoundDisposable: add, then dispose", unit: "round", size: 1_000_000,
      target: Target(atMost: 100, note: "compound add + dispose"), expected: { $0 })

    add("B12", .floor) { n in
      let sum = Accumulator()
      for _ in 0..<n {
        var actions: [() -> Void] = []
        actions.append(opaque { sum.add(1) })
        for action in actions { action() }
      }
      return sum.value
    }
    add("B12", .asyncSignals) { n in
      let sum = Accumulator()
      for _ in 0..<n {
        let compound = CompoundDisposable()
        compound.add(ActionDisposable { sum.add(1) })
        compound.dispose()
      }
      return sum.value
    }
    add("B12", .openCombine, variant: "Set<AnyCancellable>") { n in
      let sum = Accumulator()
      for _ in 0..<n {
        var cancellables = Set<AnyCancellable>()
        AnyCancellable { sum.add(1) }.store(in: &cancellables)
        for cancellable in cancellables { cancellable.cancel() }
        cancellables.removeAll()
      }
      return sum.value
    }

    workload(
      "B12b", "CompoundDisposable: add / remove churn (issue 13's W6b)", unit: "add + remove", size: 1_000_000,
      target: Target(atMost: 60, note: "compound add + remove"), expected: { $0 })

    add("B12b", .floor) { n in
      let sum = Accumulator()
      let action: () -> Void = opaque { sum.add(1) }
      var actions: [() -> Void] = []
      actions.reserveCapacity(1)
      for _ in 0..<n {
        actions.append(action)
        actions.removeLast()()
      }
      return sum.value
    }
    add("B12b", .asyncSignals) { n in
      let sum = Accumulator()
      let compound = CompoundDisposable()
      let child = ActionDisposable()
      for _ in 0..<n {
        compound.add(child)
        compound.remove(child)
        sum.add(1)
      }
      compound.dispose()
      return sum.value
    }
    add("B12b", .openCombine, variant: "Set<AnyCancellable>") { n in
      let sum = Accumulator()
      var cancellables = Set<AnyCancellable>()
      let child = AnyCancellable {}
      for _ in 0..<n {
        cancellables.insert(child)
        cancellables.remove(child)
        sum.add(1)
      }
      return sum.value
    }

    workload(
      "W6a", "CompoundDisposable: add 10 fresh children with actions, then dispose (issue 21's W6a)", unit: "child",
      size: 1_000_000, expected: triangle)

    add("W6a", .floor) { n in
      let sum = Accumulator()
      var start = 0
      while start < n {
        var actions: [() -> Void] = []
        for index in start..<min(start + childrenPerRound, n) { actions.append(opaque { sum.add(index) }) }
        for action in actions { action() }
        start += childrenPerRound
      }
      return sum.value
    }
    add("W6a", .asyncSignals) { n in
      let sum = Accumulator()
      var start = 0
      while start < n {
        let compound = CompoundDisposable()
        for index in start..<min(start + childrenPerRound, n) { compound.add(ActionDisposable { sum.add(index) }) }
        compound.dispose()
        start += childrenPerRound
      }
      return sum.value
    }
    add("W6a", .openCombine, variant: "Set<AnyCancellable>") { n in
      let sum = Accumulator()
      var start = 0
      while start < n {
        var cancellables = Set<AnyCancellable>()
        for index in start..<min(start + childrenPerRound, n) {
          AnyCancellable { sum.add(index) }.store(in: &cancellables)
        }
        cancellables.removeAll()  // the idiom: releasing an AnyCancellable cancels it
        start += childrenPerRound
      }
      return sum.value
    }

    workload(
      "W6b", "CompoundDisposable: a fresh child with an action, added, removed (issue 21's W6b)",
      unit: "add + remove", size: 1_000_000,
      target: Target(atMost: 0.5, note: "fresh child, add + remove", relativeTo: "OpenCombine Set<AnyCancellable>"),
      expected: triangle)

    add("W6b", .floor) { n in
      let sum = Accumulator()
      let tally = Accumulator()
      var actions: [() -> Void] = []
      actions.reserveCapacity(1)
      for index in 0..<n {
        actions.append(opaque { tally.add(index) })
        _ = actions.removeLast()
        sum.add(index)
      }
      return sum.value
    }
    add("W6b", .asyncSignals) { n in
      let sum = Accumulator()
      let tally = Accumulator()
      let compound = CompoundDisposable()
      for index in 0..<n {
        let child = ActionDisposable { tally.add(index) }
        compound.add(child)
        compound.remove(child)
        sum.add(index)
      }
      compound.dispose()
      return sum.value
    }
    add("W6b", .openCombine, variant: "Set<AnyCancellable>") { n in
      let sum = Accumulator()
      let tally = Accumulator()
      var cancellables = Set<AnyCancellable>()
      for index in 0..<n {
        let child = AnyCancellable { tally.add(index) }
        cancellables.insert(child)
        cancellables.remove(child)
        sum.add(index)
      }
      return sum.value
    }
  }
}

/// W6a's round: a compound (or a set) gets this many children, then is disposed.
private let childrenPerRound = 10
