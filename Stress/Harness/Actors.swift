import AsyncSignals
import Dispatch

// The actors of the actor scenarios (issue 11), and how a harness thread waits for a turn on one.

/// A default actor: its jobs run on the concurrency pool, and the library cannot tell when code runs on it.
actor PlainActor {}

/// An actor whose executor is a `QueueScheduler`: the library recognises it (a send on its queue is delivered at
/// once), and a harness thread can stop it by blocking the queue (`closeGate()`).
actor QueueBackedActor {
  nonisolated let scheduler: QueueScheduler

  init(name: String) {
    self.init(scheduler: QueueScheduler(name: name))
  }

  /// An actor on a scheduler the caller made (`SchedulerReuse` makes it where a released one lived).
  init(scheduler: QueueScheduler) {
    self.scheduler = scheduler
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    scheduler.asUnownedSerialExecutor()
  }

  /// Blocks the actor's queue, so that no job of the actor runs, until the returned semaphore is signalled.
  nonisolated func closeGate() -> DispatchSemaphore {
    let gate = DispatchSemaphore(value: 0)
    let closed = DispatchSemaphore(value: 0)
    scheduler.queue.async {
      closed.signal()
      gate.wait()
    }
    closed.wait()
    return gate
  }
}

/// Runs `body` in `actor`'s isolation, as one job of the actor, and blocks the calling harness thread (never a
/// thread of the concurrency pool) until it has run: every job the actor was running or had queued for a task
/// before it has finished by then.
func onActor<A: Actor>(_ actor: A, _ body: @escaping @Sendable (isolated A) -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task {
    await body(actor)
    done.signal()
  }
  done.wait()
}

/// A serial executor over a plain Dispatch queue, not a `QueueScheduler`: the library cannot tell that code on the
/// queue runs on the actor (issue 19's third hang shape).
final class DispatchQueueExecutor: SerialExecutor {
  let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }

  func checkIsolated() {
    dispatchPrecondition(condition: .onQueue(queue))
  }
}

/// An actor whose executor is a `DispatchQueueExecutor`.
actor DispatchExecutorActor {
  nonisolated let executor: DispatchQueueExecutor

  init(name: String) {
    executor = DispatchQueueExecutor(label: name)
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }
}
