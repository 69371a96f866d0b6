import AsyncSignals

/// What the race needs of a command: the library's `Command` and the broken twin.
protocol CommandUnderTest: Sendable {
  func execute(_ input: Int) -> Signal<Int, CommandError<StressFailure>>
  var executionSignals: Signal<Signal<Int, Never>, Never> { get }
  var executing: Signal<Bool, Never> { get }
  var enabled: Signal<Bool, Never> { get }
  var errors: Signal<StressFailure, Never> { get }
}

extension Command: CommandUnderTest where Input == Int, Output == Int, Failure == StressFailure {}

/// Concurrent `execute(_:)` on one `Command`, without `allowsConcurrentExecution` (even iterations) and with it
/// (odd ones), on a real `QueueScheduler`.
///
/// All threads but one execute the command six times each, as fast as they can. The work of an execution is a
/// `create` signal, subscribed by the command on its scheduler; its body counts the execution in and hands its
/// subscriber to the last thread, which sends two values and counts it out before completing it (or, for one
/// input in four, failing it). Observers on the scheduler follow `executing` and `enabled`, every execution
/// signal, and `errors`.
struct CommandRace: Scenario {
  static let serial = "without allowsConcurrentExecution, at most one execution is in flight at a time"
  static let exclusive = "without allowsConcurrentExecution, executing and enabled are never both true"
  static let startsAfter = "an execution's work starts after executing has become true"
  static let outcome =
    "each execute reports exactly one outcome: notEnabled at once, or its values then completion or its failure"
  static let reported =
    "each execution started appears once on executionSignals (completing there) and each failure once on errors"
  static let settles = "once every execution has ended, executing is false and enabled is true"

  let name = "Command"
  let race = "threads call execute(_:) at once, with and without allowsConcurrentExecution; one thread ends the work"
  let invariants = [serial, exclusive, startsAfter, outcome, reported, settles, Delivery.serial, Delivery.terminal]
  let sabotage = CheckThenStartCommand.description

  func threads(requested: Int) -> Int { max(3, requested) }

  private struct State {
    var executing = false
    var enabled = true
    var executions: [Recorder<Int>] = []
    var errors: [Int] = []
  }

  func iterate(_ iteration: Iteration) {
    let rounds = 6
    let notEnabled = -1
    let concurrent = !iteration.isSabotaged && iteration.number % 2 == 1
    let scheduler = QueueScheduler(name: "Stress.Command")
    let mailbox = Mailbox<(input: Int, subscriber: any Subscriber<Int, StressFailure>)>()
    let bodies = Tally()
    let active = Tally()
    let mostActive = LockedBox(0)
    let state = SerialState(State())  // guarded by: the command's scheduler (a serial queue)
    let work: @Sendable (Int) -> Signal<Int, StressFailure> = { input in
      .create { subscriber in
        bodies.increment()
        let now = active.increment()
        mostActive.withLock { $0 = max($0, now) }
        if !state.value.executing {
          iteration.fail(Self.startsAfter, "the work of input \(input) started while executing was false")
        }
        mailbox.post((input, subscriber))
        return nil
      }
    }
    let command: any CommandUnderTest =
      iteration.isSabotaged
      ? CheckThenStartCommand(scheduler: scheduler, execute: work)
      : Command(allowsConcurrentExecution: concurrent, scheduler: scheduler, execute: work)
    @Sendable func changed() {
      if !concurrent && state.value.executing && state.value.enabled {
        iteration.fail(Self.exclusive, "executing and enabled are both true")
      }
    }
    let observers = immediately {
      [
        command.executing.subscribeNext {
          state.value.executing = $0
          changed()
        },
        command.enabled.subscribeNext {
          state.value.enabled = $0
          changed()
        },
        command.executionSignals.subscribeNext { execution in
          let recorder = Recorder<Int>()
          state.value.executions.append(recorder)
          _ = execution.subscribeNext(
            { recorder.record(.next($0)) }, completed: { recorder.record(.completed) })
        },
        command.errors.subscribeNext { state.value.errors.append($0.code) },
      ]
    }
    let executors = iteration.threads - 1
    let executorsDone = Tally()
    let started = Tally()
    let outcomes = (0..<iteration.threads).map { _ in Owned<[(input: Int, recorder: Recorder<Int>)]>([]) }
    iteration.race { thread, random in
      if thread == executors {
        var finished = 0
        while executorsDone.value < executors || finished < started.value {
          guard let (input, subscriber) = mailbox.poll() else {
            random.dawdle(1)
            continue
          }
          subscriber.sendNext(input * 10)
          subscriber.sendNext(input * 10 + 1)
          active.decrement()
          if input % 4 == 3 {
            subscriber.sendError(StressFailure(code: input))
          } else {
            subscriber.sendCompleted()
          }
          finished += 1
        }
        iteration.count(3 * finished)
        return
      }
      for round in 0..<rounds {
        let input = thread * 100 + round
        let refused = Flag()
        let recorder = Recorder<Int> { _, event in
          if event.failure?.code == notEnabled { refused.set() }
        }
        _ = recorder.subscribe(
          to: command.execute(input).mapError { $0.failure ?? StressFailure(code: notEnabled) })
        if !refused.isSet { started.increment() }
        outcomes[thread].value.append((input, recorder))
        random.dawdle(4)
      }
      executorsDone.increment()
      iteration.count(rounds)
    }
    scheduler.queue.sync {}
    for observer in observers { observer.dispose() }
    check(outcomes.flatMap(\.value), state: state.value, started: started.value, bodies: bodies.value, iteration)
    if !concurrent {
      iteration.check(
        mostActive.value <= 1, Self.serial, "\(mostActive.value) executions were in flight at once")
    }
  }

  private func check(
    _ outcomes: [(input: Int, recorder: Recorder<Int>)], state: State, started: Int, bodies: Int,
    _ iteration: Iteration
  ) {
    var failed: [Int] = []
    for (input, recorder) in outcomes {
      recorder.checkDelivery(iteration)
      let events = recorder.events
      if events == [.error(StressFailure(code: -1))] { continue }
      let ending: Event<Int, StressFailure> = input % 4 == 3 ? .error(StressFailure(code: input)) : .completed
      if input % 4 == 3 { failed.append(input) }
      iteration.check(
        events == [.next(input * 10), .next(input * 10 + 1), ending], Self.outcome,
        "execute(\(input)) reported \(events)")
    }
    iteration.check(
      bodies == started && state.executions.count == started, Self.reported,
      "\(started) executions started, \(bodies) ran their work, \(state.executions.count) on executionSignals")
    for execution in state.executions {
      execution.checkDelivery(iteration, "an execution signal's subscriber")
      iteration.check(
        execution.values.count == 2 && execution.isCompleted && execution.terminals == 1, Self.reported,
        "an execution signal delivered \(execution.events)")
    }
    iteration.check(
      state.errors.sorted() == failed.sorted(), Self.reported,
      "errors delivered \(state.errors.sorted()); the failed executions were \(failed.sorted())")
    iteration.check(
      !state.executing && state.enabled, Self.settles,
      "in the end executing is \(state.executing), enabled \(state.enabled)")
  }
}
