import AsyncSignals
import Dispatch

/// `ActorScheduler` (issue 11) under concurrent `schedule` and `dispose` from many threads.
///
/// Every thread schedules 150 blocks on one `ActorScheduler` and disposes about a third of them while the actor
/// runs them: its own, at random (some just scheduled, some long before), and some of its neighbour's. On even iterations the actor is
/// `QueueScheduler`-backed and starts gated (its queue blocked); thread 0 opens the gate partway through. A block
/// whose `dispose()` returned before the gate opened cannot have started, so it must never run; that is the only
/// case where "disposed before it ran" is known for sure. On odd iterations the actor is a default actor,
/// ungated. The blocks keep their log in plain memory: only the actor's isolation orders them.
struct ActorSchedulerRace: Scenario {
  static let fifo = "each thread's blocks run in the order it scheduled them, each at most once"
  static let allRun = "every block that was not disposed runs"
  static let disposedNeverRuns = "a block disposed before it started (the actor gated) never runs"
  static let current = "a block runs with its ActorScheduler as the current scheduler"

  let name = "ActorScheduler"
  let race = "threads schedule blocks on an ActorScheduler and dispose a third of them; the actor gated at first"
  let invariants = [Delivery.serial, fifo, allRun, disposedNeverRuns, current]
  let sabotage = BrokenActorScheduler<PlainActor>.description

  static let count = 150

  func threads(requested: Int) -> Int { max(4, requested) }

  private struct Ran: Sendable {
    let thread: Int
    let sequence: Int
  }

  func iterate(_ iteration: Iteration) {
    if iteration.number % 2 == 0 {
      let actor = QueueBackedActor(name: "Stress.ActorScheduler")
      run(iteration, actor: actor, gate: actor.closeGate())
    } else {
      run(iteration, actor: PlainActor(), gate: nil)
    }
  }

  private func run<A: Actor>(_ iteration: Iteration, actor: A, gate: DispatchSemaphore?) {
    let threads = iteration.threads
    let inFlight = Tally()
    let scheduler: any Scheduler =
      iteration.isSabotaged ? BrokenActorScheduler(actor, inFlight: inFlight) : ActorScheduler(actor)
    let detector = OverlapDetector()
    let log = SerialState<[Ran]>([])
    let offScheduler = Tally()
    let clock = EpochClock()
    let opened = Owned(gate == nil ? Int.min : Int.max)
    // Per thread: the blocks it disposed (whose thread, which one) and when dispose() returned (a tick).
    let disposals = (0..<threads).map { _ in Owned<[(thread: Int, sequence: Int, at: Int)]>([]) }
    // Per thread: its blocks' disposables, for its neighbour to dispose some of them.
    let published = (0..<threads).map { _ in Slots<any Disposable>(capacity: Self.count) }
    var setup = iteration.random()
    let openAt = setup.below(Self.count)
    iteration.race { thread, random in
      var handles: [any Disposable] = []
      var live: [Int] = []
      let neighbour = (thread + 1) % threads
      for sequence in 0..<Self.count {
        if thread == 0, sequence == openAt, let gate {
          opened.value = clock.tick()
          gate.signal()
        }
        let handle =
          scheduler.schedule {
            guard detector.enter() else { return }
            defer { detector.exit() }
            if Schedulers.current !== scheduler { offScheduler.increment() }
            log.value.append(Ran(thread: thread, sequence: sequence))
          } ?? ActionDisposable()
        handles.append(handle)
        published[thread].publish(handle)
        live.append(sequence)
        if random.oneIn(4) {
          let victim = live.remove(at: random.oneIn(2) ? live.count - 1 : random.below(live.count))
          handles[victim].dispose()
          disposals[thread].value.append((thread, victim, clock.tick()))
        }
        if random.oneIn(12), published[neighbour].count > 0 {
          let victim = random.below(published[neighbour].count)
          published[neighbour][victim].dispose()
          disposals[thread].value.append((neighbour, victim, clock.tick()))
        }
        if random.oneIn(16) { random.dawdle(2) }
      }
      iteration.count(Self.count)
    }
    // FIFO: a block scheduled now runs after every block scheduled before it (the broken twin is not FIFO, so
    // its tasks are also counted down).
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule { done.signal() }
    done.wait()
    _ = waitUntil { inFlight.value == 0 }
    let final = Owned<[Ran]>([])
    onActor(actor) { _ in final.value = log.value }
    iteration.check(detector.count == 0, Delivery.serial, "\(detector.count) blocks started while another one ran")
    iteration.check(offScheduler.value == 0, Self.current, "\(offScheduler.value) blocks ran with another current")
    var ran = Array(repeating: Set<Int>(), count: threads)
    var last = Array(repeating: -1, count: threads)
    var reportedOrder = false
    for entry in final.value {
      if entry.sequence <= last[entry.thread], !reportedOrder {
        iteration.fail(
          Self.fifo, "thread \(entry.thread): block \(entry.sequence) ran after block \(last[entry.thread])")
        reportedOrder = true
      }
      last[entry.thread] = max(last[entry.thread], entry.sequence)
      ran[entry.thread].insert(entry.sequence)
    }
    var disposedAt = Array(repeating: [Int?](repeating: nil, count: Self.count), count: threads)
    for disposal in disposals.flatMap(\.value) {
      disposedAt[disposal.thread][disposal.sequence] = min(
        disposedAt[disposal.thread][disposal.sequence] ?? .max, disposal.at)
    }
    for thread in 0..<threads {
      let disposed = disposedAt[thread]
      let missing = (0..<Self.count).filter { disposed[$0] == nil && !ran[thread].contains($0) }
      iteration.check(
        missing.isEmpty, Self.allRun,
        "thread \(thread): \(missing.count) blocks never disposed never ran (the first: \(missing.first ?? -1))")
      let early = (0..<Self.count).filter { ran[thread].contains($0) && (disposed[$0] ?? .max) < opened.value }
      iteration.check(
        early.isEmpty, Self.disposedNeverRuns,
        "thread \(thread): \(early.count) blocks ran though disposed while the actor was gated (the first: "
          + "\(early.first ?? -1))")
    }
  }
}
