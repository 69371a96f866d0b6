import Dispatch

/// A task executor over one serial Dispatch queue: a task started with it as its preference
/// (`Task(executorPreference:)`) runs its nonisolated code on that queue, one job at a time, in the order the jobs
/// were enqueued. Such a task's first job is enqueued when the task is made, so `drained()` awaited after making it
/// returns once the task has run up to its first suspension (or to its end).
final class SerialTaskExecutor: TaskExecutor {
  let queue = DispatchQueue(label: "AsyncSignalsTests.SerialTaskExecutor")

  init() {}

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }

  /// Suspends, without blocking a thread, until the queue has run every job enqueued on it before this call: the
  /// queue is serial and first in, first out, so the block this enqueues runs after them.
  func drained() async {
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
  }
}
