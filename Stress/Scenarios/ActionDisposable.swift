import AsyncSignals
import Synchronization

/// Concurrent `dispose()` of the same `ActionDisposable`s from every thread (guarantee 3).
struct ActionDisposableRace: Scenario {
  static let once = "the action runs exactly once"
  static let disposedAfter = "isDisposed is true once dispose() has returned"

  let name = "ActionDisposable"
  let race = "every thread disposes the same 64 action disposables; threads start in pairs on the same one"
  let invariants = [once, disposedAfter]
  let sabotage = "a disposable that checks, then sets, its flag (two atomics operations instead of one exchange)"

  func threads(requested: Int) -> Int { max(2, requested) }

  func iterate(_ iteration: Iteration) {
    let count = 64
    let runs = (0..<count).map { _ in Tally() }
    let disposables: [any Disposable] = runs.map { tally in
      iteration.isSabotaged
        ? CheckThenSetDisposable { tally.increment() } as any Disposable : ActionDisposable { tally.increment() }
    }
    iteration.race { thread, random in
      let offset = (thread % 2) * count / 2
      for step in 0..<count {
        let disposable = disposables[(offset + step) % count]
        disposable.dispose()
        iteration.check(disposable.isDisposed, Self.disposedAfter, "disposable \((offset + step) % count)")
        if random.oneIn(16) { random.dawdle(1) }
      }
      iteration.count(count)
    }
    for (index, tally) in runs.enumerated() {
      iteration.check(tally.value == 1, Self.once, "the action of disposable \(index) ran \(tally.value) times")
    }
  }
}
