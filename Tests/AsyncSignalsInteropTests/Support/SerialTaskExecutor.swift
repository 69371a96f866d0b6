import Dispatch

/// A task executor over one serial Dispatch queue: a task made with it as its preference
/// (`Task(executorPreference:)`) starts with a job on that queue and runs its nonisolated code there, one job at a
/// time, in the order the jobs were enqueued.
final class SerialTaskExecutor: TaskExecutor {
  let queue = DispatchQueue(label: "AsyncSignalsInteropTests.SerialTaskExecutor")

  init() {}

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }

  /// Runs `block` once the job running on the queue now has ended: once the task running it has suspended. Call it
  /// from a task that prefers this executor, before the call that suspends it: `block` waits for what the task
  /// does until then, such as the subscription a loop's first `next()` makes before it waits for a value.
  func afterCurrentJob(_ block: @escaping @Sendable () -> Void) {
    dispatchPrecondition(condition: .onQueue(queue))  // from anywhere else, `block` could run at once
    queue.async(execute: block)
  }
}
