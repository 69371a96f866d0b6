import AsyncSignals
import OpenCombine

// B12: CompoundDisposable.
//
// B12   add then dispose: a new compound, one new child with an action, the compound disposed (the action runs)
// B12b  add / remove churn: one long-lived compound; the same child added and removed again
//
// OpenCombine has no compound disposable; its idiom is a `Set<AnyCancellable>` (`store(in:)`), cancelled and
// emptied, or with the cancellable removed again. The floor is an array of closures.

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
  }
}
