import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// The budget of one delivery job: how many callbacks it runs before the actor's other work gets a turn.
private let budget = isolatedDeliveryBudget

/// Where `marker` is in `log`: how many callbacks ran before the other work got its turn.
private func markerIndex(in log: [String], _ marker: String = "marker") -> Int? {
  log.firstIndex(of: marker)
}

@Suite("Isolated delivery: a job delivers at most one budget, then lets the actor's other work run")
struct FairDrainTests {
  @Test("a backlog queued behind a gate: other work queued meanwhile runs after one budget, not after the backlog")
  func backlogOnQueueExecutor() async {
    let actor = QueueActor()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(isolatedTo: actor) { actor, value in actor.log.append("\(value)") }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { for value in 0..<(budget * 5) { subject.sendNext(value) } }  // one job, behind the gate
    actor.scheduler.queue.async { actor.assumeIsolated { $0.log.append("marker") } }  // an actor method's job
    gate.signal()
    await drained(actor.scheduler)
    await drained(actor.scheduler)
    let log = await actor.log
    #expect(markerIndex(in: log) == budget)
    #expect(log.filter { $0 != "marker" } == (0..<(budget * 5)).map { "\($0)" })  // order kept across jobs
    subscription.dispose()
  }

  @Test("a flood that keeps arriving while the job delivers still lets other work in after one budget")
  func floodOnQueueExecutor() async {
    let actor = QueueActor()
    let subject = Subject<Int, Never>()
    let total = budget * 4
    // Each callback sends the next value: the queue never empties while the job runs (a producer that keeps up).
    let subscription = subject.subscribeNext(isolatedTo: actor) { actor, value in
      actor.log.append("\(value)")
      if value + 1 < total { subject.sendNext(value + 1) }
    }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { subject.sendNext(0) }
    actor.scheduler.queue.async { actor.assumeIsolated { $0.log.append("marker") } }
    gate.signal()
    while await actor.log.count < total + 1 { await drained(actor.scheduler) }
    let log = await actor.log
    #expect(markerIndex(in: log) == budget)
    #expect(log.filter { $0 != "marker" } == (0..<total).map { "\($0)" })
    subscription.dispose()
  }

  @Test("the at-once path: a sender on the executor delivers one budget before sendNext returns, the rest later")
  func atOncePathYields() async {
    let actor = QueueActor()
    let total = budget * 3
    // A `create` subscriber delivers a send from inside its own callback at once, nested (RAC's recursive lock):
    // the engine, busy delivering, queues it, and the at-once path drains what was queued before returning.
    let sender = Locked<(any Subscriber<Int, Never>)?>(nil)
    let signal = Signal<Int, Never>.create { subscriber in
      sender.value = subscriber
      return nil
    }
    let subscription = actor.scheduler.queue.sync {
      actor.scheduler.performAsCurrent {  // subscribed at once: the body runs before this returns
        signal.subscribeNext(isolatedTo: actor) { actor, value in
          actor.log.append("\(value)")
          if value + 1 < total { sender.value?.sendNext(value + 1) }
        }
      }
    }
    actor.scheduler.queue.async {
      actor.scheduler.queue.async { actor.assumeIsolated { $0.log.append("marker") } }
      sender.value?.sendNext(0)  // on the executor with nothing waiting: at once
      actor.assumeIsolated { $0.log.append("sendNext returned") }
    }
    while await actor.log.count < total + 2 { await drained(actor.scheduler) }
    let log = await actor.log
    let expected =
      (0..<budget).map { "\($0)" } + ["sendNext returned", "marker"] + (budget..<total).map { "\($0)" }
    #expect(log == expected)
    subscription.dispose()
  }

  @Test("the main actor: a backlog's job lets a main-queue block in after one budget")
  @MainActor
  func backlogOnMainQueue() async {
    let subject = Subject<Int, Never>()
    let log = Locked<[String]>([])
    let subscription = subject.subscribeNext(isolatedTo: MainActor.shared) { _, value in log.append("\(value)") }
    // The main queue cannot run the job until this test suspends: the whole backlog and the marker are queued
    // first, the job ahead of the marker.
    onPlainThread { for value in 0..<(budget * 3) { subject.sendNext(value) } }
    DispatchQueue.main.async { log.append("marker") }
    while log.value.count < budget * 3 + 1 {
      await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
    }
    #expect(markerIndex(in: log.value) == budget)
    #expect(log.value.filter { $0 != "marker" } == (0..<(budget * 3)).map { "\($0)" })
    subscription.dispose()
  }

  @Test("an actor scheduler runs at most one budget of blocks per job")
  func actorSchedulerBudget() async {
    let actor = QueueActor()
    let scheduler = ActorScheduler(actor)
    let gate = closeGate(on: actor.scheduler)
    for index in 0..<(budget * 2) {
      scheduler.schedule { actor.assumeIsolated { $0.log.append("\(index)") } }
    }
    actor.scheduler.queue.async { actor.assumeIsolated { $0.log.append("marker") } }
    gate.signal()
    while await actor.log.count < budget * 2 + 1 { await drained(actor.scheduler) }
    #expect(markerIndex(in: await actor.log) == budget)
  }

  @Test("disposing between two jobs of a backlog: the rest is never delivered, and is released")
  func disposeBetweenJobs() async {
    let actor = QueueActor()
    let subject = Subject<Tracked, Never>()
    let tracker = LifetimeTracker()
    let subscription = subject.subscribeNext(isolatedTo: actor) { actor, _ in actor.log.append("got") }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { for _ in 0..<(budget * 3) { subject.sendNext(tracker.make()) } }
    actor.scheduler.queue.async { subscription.dispose() }  // runs after the first budget
    gate.signal()
    await drained(actor.scheduler)
    await drained(actor.scheduler)
    #expect(await actor.log.count == budget)
    #expect(tracker.liveCount == 0)  // what the first job carried over was released by the disposal
  }

  @Test("the budget is the 128 callbacks the docs state")
  func budgetAsDocumented() {
    #expect(isolatedDeliveryBudget == 128)  // the Actors article and ActorScheduler's docs say 128
  }

  @Test("a default actor's delivery job runs at .medium when subscribed outside any task, whoever sends")
  func priorityOutsideTask() async {
    let recorder = Recorder()
    let subject = Subject<Int, Never>()
    let seen = Locked<CheckedContinuation<TaskPriority, Never>?>(nil)
    let subscription = Locked<(any Disposable)?>(nil)
    onPlainThread {
      subscription.value = subject.subscribeNext(isolatedTo: recorder) { _, _ in
        seen.value?.resume(returning: Task.basePriority ?? .medium)
      }
    }
    let priority = await withCheckedContinuation { continuation in
      seen.value = continuation
      Task(priority: .high) { subject.sendNext(1) }
    }
    #expect(priority == .medium)
    subscription.value?.dispose()
  }

  @Test("a default actor's delivery job runs at the priority of the task that subscribed, not the sender's")
  func priorityOfSubscriber() async {
    let recorder = Recorder()
    let subject = Subject<Int, Never>()
    let seen = Locked<CheckedContinuation<TaskPriority, Never>?>(nil)
    let subscription = await Task(priority: .low) {
      subject.subscribeNext(isolatedTo: recorder) { _, _ in seen.value?.resume(returning: Task.basePriority ?? .medium)
      }
    }.value
    // Awaited through a continuation, not the actor: awaiting the actor would escalate the job's priority.
    let priority = await withCheckedContinuation { continuation in
      seen.value = continuation
      Task(priority: .high) { subject.sendNext(1) }
    }
    #expect(priority == .low)
    subscription.dispose()
  }
}
