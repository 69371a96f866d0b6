// A library-free program for the one ThreadSanitizer report Stress users have seen on this toolchain (issue 26):
// a lock, a continuation stored under it, and a resume from another thread — the shape of
// `SignalSequenceStorage`'s hand-off, with nothing of AsyncSignals in it.
//
//   swiftc -swift-version 6 -sanitize=thread -g Scripts/Toolchain/ContinuationRace.swift -o /tmp/continuation-race
//   /tmp/continuation-race 2000 --widen    # reports a "data race" in withUnsafeContinuation(isolation:) vs resume
//
// With `--widen`, the consumer yields after storing its continuation, so the producer often resumes it before the
// task has finished suspending. The concurrency runtime makes that safe with atomics in its own uninstrumented
// code, which ThreadSanitizer cannot see; so it reports the task's frame, written by `withUnsafeContinuation` and
// read by `resume`, as a race. Swift 6.3.1 on Linux reported it in 3 of 3 runs of 2,000 rounds with `--widen`, and
// in none of 3 without: the toolchain's false positive, https://github.com/swiftlang/swift/issues/57803 (SR-15498).
// The program's own state is guarded by its lock.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

final class Mailbox: @unchecked Sendable {
  // guarded by: `lock`
  private var lock = pthread_mutex_t()
  private var waiter: UnsafeContinuation<Int, Never>?
  private var buffered: [Int] = []

  init() { pthread_mutex_init(&lock, nil) }

  func receive(_ value: Int) {  // producer thread
    pthread_mutex_lock(&lock)
    if let waiter = waiter {
      self.waiter = nil
      pthread_mutex_unlock(&lock)
      waiter.resume(returning: value)
      return
    }
    buffered.append(value)
    pthread_mutex_unlock(&lock)
  }

  func next(isolation actor: isolated (any Actor)? = #isolation) async -> Int {  // consumer task
    await withTaskCancellationHandler(operation: {
    await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Int, Never>) in
      pthread_mutex_lock(&lock)
      if !buffered.isEmpty {
        let value = buffered.removeFirst()
        pthread_mutex_unlock(&lock)
        continuation.resume(returning: value)
        return
      }
      waiter = continuation
      pthread_mutex_unlock(&lock)
      if widen { sched_yield() }  // the producer may resume the continuation before this task has suspended
    }
    }, onCancel: {}, isolation: actor)
  }
}

let widen = CommandLine.arguments.contains("--widen")
let rounds = Int(CommandLine.arguments.dropFirst().first ?? "2000") ?? 2000
for round in 0..<rounds {
  let mailbox = Mailbox()
  let count = 200
  let producer = Thread {
    for value in 0..<count {
      mailbox.receive(value)
      if value % 7 == 0 { sched_yield() }
    }
  }
  producer.start()
  var sum = 0
  for _ in 0..<count { sum += await mailbox.next() }
  precondition(sum == count * (count - 1) / 2, "round \(round): lost values")
}
print("done: \(rounds) rounds")
