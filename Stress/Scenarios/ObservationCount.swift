import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Observation
import Synchronization

/// An `@Observable` counter that any thread may change: a lock guards the count, the registrar is told of each
/// access and change, as the `@Observable` macro would.
final class StressCounter: Observable, @unchecked Sendable {
  // guarded by: `lock`; `registrar` is thread-safe.
  private let registrar = ObservationRegistrar()
  private let lock = NSRecursiveLock()
  private var storage = 0

  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return lock.withLock { storage }
    }
    set {
      lock.withLock { registrar.withMutation(of: self, keyPath: \.count) { storage = newValue } }
    }
  }
}

/// The count of the library's main-actor jobs that `TestScheduler.settle()` waits for (issue 27), against
/// subscriptions of `Signal.observing` made and disposed from many threads in the middle of changes.
///
/// Every path must give its count back — the evaluation ran, the main-queue job found itself cancelled, the
/// subscription was disposed — or every later `settle` in the process would wait for a job that never comes. Some
/// threads change an `@Observable` counter over and over (each change makes the evaluation of every live
/// subscription due, from its `willSet`); the others subscribe to observations of it and dispose them at random
/// moments, some from their own callback, and schedule blocks on the main queue and cancel some. The main queue
/// does not run during the race, so evaluations and blocks pile up as counted work; then the coordinator, on the
/// main thread, runs the main queue until the count returns to 0, which it must.
struct ObservationCountRace: Scenario {
  static let returns =
    "the count of main-actor jobs returns to 0 once every observation is disposed and the main queue has run"
  static let nothingAfterDispose = "an observation delivers nothing once dispose() has returned"

  let name = "ObservationCount"
  let race = "threads change an @Observable counter while others subscribe to observations of it and dispose them"
  let invariants = [Delivery.serial, returns, nothingAfterDispose]
  let sabotage = "an observation whose disposal, in the middle of a change, keeps the count it held"

  func threads(requested: Int) -> Int { max(3, requested) }

  /// The highest count seen at the end of a race, before the main queue ran.
  static let highWater = Atomic<Int>(0)

  var report: String? {
    "up to \(Self.highWater.load(ordering: .relaxed)) main-actor jobs counted at the end of a race"
  }

  func iterate(_ iteration: Iteration) {
    let counter = StressCounter()
    // `Signal.observing` is a main-actor function. The Stress executable runs its scenarios on the main thread,
    // whose main queue runs only when the coordinator lets it (below); anywhere else (the self-check, in a test
    // process) the main queue runs on its own, and the signals are made in a block of it.
    let onMainThread = Thread.isMainThread
    let make: @Sendable () -> [Signal<Int, Never>] = {
      MainActor.assumeIsolated { [Signal.observing(counter, \.count), Signal.observing(counter) { $0.count * 2 }] }
    }
    let signals = onMainThread ? make() : DispatchQueue.main.sync(execute: make)
    let changers = 1
    let late = Tally()  // deliveries after dispose() returned
    iteration.race { thread, random in
      if thread < changers {
        for _ in 0..<200 {
          counter.count += 1
          if random.oneIn(8) { random.dawdle(2) }
        }
        iteration.count(200)
        return
      }
      for round in 0..<20 {
        let disposed = Flag()
        let recorder = Recorder<Int> { _, _ in if disposed.isSet { late.increment() } }
        let subscription = recorder.subscribe(to: signals[round % signals.count].promoteError(to: StressFailure.self))
        random.dawdle(4)
        if iteration.isSabotaged && random.oneIn(2) {
          // BUG: a disposal in the middle of a change that keeps the count it held
          _ = MainActorJobs.begin(.evaluation)
        }
        subscription.dispose()
        disposed.set()
        if random.oneIn(3) {
          let block = QueueScheduler.main.schedule {}
          if random.oneIn(2) { block?.dispose() }  // cancelled: the block still runs, finds it, and gives back
        }
      }
      iteration.count(20)
    }
    _ = Self.highWater.max(MainActorJobs.count)
    // The race is over and every subscription disposed: let the main queue run until the count is back to 0, or
    // give up after a while.
    let deadline = Date().addingTimeInterval(10)
    while MainActorJobs.count > 0, Date() < deadline {
      if onMainThread {
        RunLoop.main.run(until: Date().addingTimeInterval(0.002))
      } else {
        usleep(1_000)
      }
    }
    iteration.check(
      MainActorJobs.count == 0, Self.returns, "\(MainActorJobs.count) still counted 10 s after the race")
    iteration.check(late.value == 0, Self.nothingAfterDispose, "\(late.value) values after dispose() returned")
  }
}
