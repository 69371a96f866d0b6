// A library-free program for the one ThreadSanitizer report of this toolchain that is not ours (README, "Sanitizers"):
// a lock, a continuation stored under it, and a resume from another thread — the shape of
// `SignalSequenceStorage`'s hand-off, with nothing of AsyncSignals in it.
//
//   swiftc -swift-version 6 -sanitize=thread -g Scripts/Toolchain/ContinuationRace.swift -o /tmp/continuation-race
//   /tmp/continuation-race 2000 --widen                   # reports a "data race" in withUnsafeContinuation vs resume
//   /tmp/continuation-race 2000 --widen --variant acquire  # the same hand-off, changed on the program's side
//
// With `--widen`, the consumer yields after storing its continuation, so the producer often resumes it before the
// task has finished suspending. Without it, 3 runs of 2,000 rounds gave no report; with it, every run does.
//
// What the report says. The write is made by `withUnsafeContinuation`'s first partial function (`…YalFTY0_`), where
// the task sets up its *next* continuation: it stores the address of the result in the continuation's context, in
// the task's own memory. The previous read is `UnsafeContinuation.resume(returning:)` on the producer's thread,
// loading that same field of the *previous* continuation to store the value: the task allocator gave both contexts
// the same address. The runtime orders the two with atomics that ThreadSanitizer does not see, and tells it only
// half: `resume` releases on the task (`__tsan_release`), and the executor acquires it when it runs a task that had
// suspended. A task resumed before it suspended never suspends: `swift_continuation_await` finds it resumed and
// goes on at once, with no acquire. Nothing of the program's runs between the two accesses either, unless it
// synchronises with the producer after the resume. The toolchain's false positive,
// https://github.com/swiftlang/swift/issues/57803. The program's own state is guarded by its lock.
//
// Hand-offs tried on the program's side (`--variant`), with `--widen` and 2,000 rounds a run, Swift 6.3.1 on Linux,
// 2 cores; a run counts when it reports at all:
//
//   value (as above)     10 of 10 runs report. With -O, 10 of 10: also resume's store of the value against the
//                        task's read of it, top frame the caller's code, not withUnsafeContinuation.
//   void                 10 of 10 report: a Void continuation, the value through the lock. The read of the context
//                        remains; only the store of the value goes.
//   checked              0 of 30, and 0 of 30 with -O: `withCheckedContinuation`. Its `resume` is compiled into the
//                        concurrency library, which ThreadSanitizer does not instrument, so the producer's accesses
//                        to the context are never seen. (Its cost: a canary object per suspension, an atomic swap.)
//   acquire              0 of 30: the consumer calls `__tsan_acquire` on the task (the continuation's address) as
//                        soon as the await returns: the acquire the runtime leaves out, before the next set-up.
//                        With -O, 10 of 10 still report the store of the value against its read, which comes first.
//   void-acquire         0 of 30, and 0 of 30 with -O: both, so no value crosses the continuation at all.
//   under-lock           0 of 30: the producer resumes while it holds the lock, the consumer takes the lock once
//                        after the await. Breaks "resume after releasing the lock", which the library keeps so that a
//                        cancellation handler racing with a value cannot deadlock.
//   handshake            0 of 30: the producer marks, under the lock, when its resume has returned; the consumer
//                        waits for the mark after the await. A real edge, paid for with a wait on every wake-up.
//   ignore               0 of 30: the producer's `resume` runs between ThreadSanitizer's AnnotateIgnoreReadsBegin/
//                        WritesBegin and their ends: a suppression by another name, scoped to the call.
//   actor-hop            0 of 30: the consumer runs on a global actor, and the producer resumes from a task on that
//                        actor, so only after the consumer has suspended and given the actor up; the executor's
//                        acquire then orders it. A task per value, and no answer for consumers with no actor.
//   resumed-checked      the library's answer: the consumer suspends with `withUnsafeContinuation` as in `value`,
//                        and the producer resumes it through `CheckedContinuation(continuation:)`, whose `resume`
//                        runs inside the uninstrumented runtime. The continuation stays a pointer where it is kept
//                        (no reference to retain per value), and the canary is made only for the resume. 0 of 30, and
//                        0 of 30 with -O (`value`, the control, 10 of 10 and 5 of 5 in the same session).
//
// The counts of 30 runs were taken with a first draft of these variants; this program gave the same answer for each
// in 3 runs (debug, and -O for value, acquire, void-acquire and checked).
//
// `__tsan_acquire` and the Annotate functions are looked up with dlsym, as the concurrency runtime
// does: without ThreadSanitizer they are absent, and the variants that use them run without them.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

typealias AddressHook = @convention(c) (UnsafeRawPointer?) -> Void
typealias AnnotationHook = @convention(c) (UnsafePointer<CChar>?, Int32) -> Void

func lookUp<Hook>(_ name: String, as type: Hook.Type) -> Hook? {
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
  return unsafeBitCast(symbol, to: type)
}

let tsanAcquire = lookUp("__tsan_acquire", as: AddressHook.self)
let ignoreReadsBegin = lookUp("AnnotateIgnoreReadsBegin", as: AnnotationHook.self)
let ignoreReadsEnd = lookUp("AnnotateIgnoreReadsEnd", as: AnnotationHook.self)
let ignoreWritesBegin = lookUp("AnnotateIgnoreWritesBegin", as: AnnotationHook.self)
let ignoreWritesEnd = lookUp("AnnotateIgnoreWritesEnd", as: AnnotationHook.self)

enum Variant: String, CaseIterable {
  case value, void, checked, acquire, voidAcquire = "void-acquire", underLock = "under-lock", handshake, ignore
  case actorHop = "actor-hop", resumedChecked = "resumed-checked"
}

let arguments = CommandLine.arguments
let widen = arguments.contains("--widen")
let rounds = Int(arguments.dropFirst().first ?? "2000") ?? 2000
let variant: Variant = {
  guard let index = arguments.firstIndex(of: "--variant") else { return .value }
  guard index + 1 < arguments.count, let variant = Variant(rawValue: arguments[index + 1]) else {
    fatalError("--variant takes one of: \(Variant.allCases.map(\.rawValue).joined(separator: ", "))")
  }
  return variant
}()

@globalActor actor ConsumerActor {
  static let shared = ConsumerActor()
}

final class Mailbox: @unchecked Sendable {
  // guarded by: `lock` (every stored property below it)
  private var lock = pthread_mutex_t()
  private var waiter: UnsafeContinuation<Int, Never>?
  private var voidWaiter: UnsafeContinuation<Void, Never>?
  private var checkedWaiter: CheckedContinuation<Int, Never>?
  private var buffered: [Int] = []
  private var resuming = false  // `handshake`: a resume has begun and not yet returned

  init() { pthread_mutex_init(&lock, nil) }

  func receive(_ value: Int) {  // producer thread
    pthread_mutex_lock(&lock)
    if let waiter = voidWaiter {  // `void`, `void-acquire`: the value waits in `buffered`
      voidWaiter = nil
      buffered.append(value)
      pthread_mutex_unlock(&lock)
      waiter.resume()
      return
    }
    if let waiter = checkedWaiter {
      checkedWaiter = nil
      pthread_mutex_unlock(&lock)
      waiter.resume(returning: value)
      return
    }
    guard let waiter else {
      buffered.append(value)
      pthread_mutex_unlock(&lock)
      return
    }
    self.waiter = nil
    switch variant {
    case .underLock:
      waiter.resume(returning: value)
      pthread_mutex_unlock(&lock)
    case .handshake:
      resuming = true
      pthread_mutex_unlock(&lock)
      waiter.resume(returning: value)
      pthread_mutex_lock(&lock)
      resuming = false
      pthread_mutex_unlock(&lock)
    case .actorHop:
      pthread_mutex_unlock(&lock)
      Task { @ConsumerActor in waiter.resume(returning: value) }
    case .resumedChecked:
      pthread_mutex_unlock(&lock)
      CheckedContinuation(continuation: waiter).resume(returning: value)
    case .ignore:
      pthread_mutex_unlock(&lock)
      ignoreReadsBegin?(#file, #line)
      ignoreWritesBegin?(#file, #line)
      waiter.resume(returning: value)
      ignoreWritesEnd?(#file, #line)
      ignoreReadsEnd?(#file, #line)
    default:
      pthread_mutex_unlock(&lock)
      waiter.resume(returning: value)
    }
  }

  func next(isolation actor: isolated (any Actor)? = #isolation) async -> Int {  // consumer task
    switch variant {
    case .void, .voidAcquire: return await nextThroughVoid()
    case .checked: return await nextChecked()
    default: break
    }
    var task: UnsafeRawPointer?
    let value = await withTaskCancellationHandler(
      operation: {
        await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Int, Never>) in
          task = unsafeBitCast(continuation, to: UnsafeRawPointer.self)  // the task: what `resume` releases on
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
    switch variant {
    case .acquire:
      tsanAcquire?(task)
    case .underLock:
      pthread_mutex_lock(&lock)
      pthread_mutex_unlock(&lock)
    case .handshake:
      while true {
        pthread_mutex_lock(&lock)
        let resumed = !resuming
        pthread_mutex_unlock(&lock)
        if resumed { break }
        sched_yield()
      }
    default:
      break
    }
    return value
  }

  private func nextThroughVoid(isolation actor: isolated (any Actor)? = #isolation) async -> Int {
    while true {
      pthread_mutex_lock(&lock)
      if !buffered.isEmpty {
        let value = buffered.removeFirst()
        pthread_mutex_unlock(&lock)
        return value
      }
      pthread_mutex_unlock(&lock)
      var task: UnsafeRawPointer?
      await withTaskCancellationHandler(
        operation: {
          await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
            task = unsafeBitCast(continuation, to: UnsafeRawPointer.self)
            pthread_mutex_lock(&lock)
            if !buffered.isEmpty {
              pthread_mutex_unlock(&lock)
              continuation.resume()
              return
            }
            voidWaiter = continuation
            pthread_mutex_unlock(&lock)
            if widen { sched_yield() }
          }
        }, onCancel: {}, isolation: actor)
      if variant == .voidAcquire { tsanAcquire?(task) }
    }
  }

  private func nextChecked(isolation actor: isolated (any Actor)? = #isolation) async -> Int {
    await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: actor) { (continuation: CheckedContinuation<Int, Never>) in
          pthread_mutex_lock(&lock)
          if !buffered.isEmpty {
            let value = buffered.removeFirst()
            pthread_mutex_unlock(&lock)
            continuation.resume(returning: value)
            return
          }
          checkedWaiter = continuation
          pthread_mutex_unlock(&lock)
          if widen { sched_yield() }
        }
      }, onCancel: {}, isolation: actor)
  }
}

func run(isolation: isolated (any Actor)? = #isolation) async {
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
}

@ConsumerActor func runOnConsumerActor() async { await run() }

if variant == .actorHop { await runOnConsumerActor() } else { await run() }
print("done: \(rounds) rounds, variant \(variant.rawValue)")
