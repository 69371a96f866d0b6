import AsyncSignals
import AsyncSignalsInterop
import Dispatch
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

// A subject's send that waits (issue 28, item 3): `await subject.send(_:)` suspends while a bounded loop of the
// subject (`values(bufferingPolicy: .bounded(n))`) has no room, and sends at once otherwise; `sendNext` never waits.
//
// Every hand-off here is deterministic: each task runs on a serial executor of its own, and `settled()` waits for
// the jobs that executor was given so far, so that once it returns the task has run until it suspended (or ended).
// A sender whose loop is held at a gate cannot be resumed meanwhile, so what it has sent then is exact.

/// A task executor over one serial queue that counts the jobs it is given: the first starts its task, each later
/// one is a resumption of it.
private final class ProbeExecutor: TaskExecutor {
  let queue = DispatchQueue(label: "SubjectSendTests.ProbeExecutor")
  private let enqueued = Atomic<Int>(0)

  /// How many jobs it has been given.
  var jobs: Int { enqueued.load(ordering: .relaxed) }

  func enqueue(_ job: consuming ExecutorJob) {
    enqueued.add(1, ordering: .relaxed)
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }

  /// Returns once every job given to this executor before the call has run: its task has suspended or ended.
  func settled() async {
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
  }
}

/// A task that sends `values` into `subject` with `await send(_:)`, on an executor of its own, recording each send
/// that has returned.
private final class Sender: Sendable {
  let executor = ProbeExecutor()
  let returned = Locked<[Int]>([])
  let task: Task<Void, Never>

  init(into subject: Subject<Int, Never>, _ values: [Int]) {
    let returned = returned
    task = Task(executorPreference: executor) {
      for value in values {
        await subject.send(value)
        returned.append(value)
      }
    }
  }

  /// Returns once the task has suspended (in a `send` that waits) or ended.
  func settled() async { await executor.settled() }
}

/// An iterator kept by a main-actor model, which different tasks of the model call.
@MainActor
private final class IteratorModel {
  private var iterator: SignalSequence<Int, Never>.Iterator

  init(_ iterator: SignalSequence<Int, Never>.Iterator) {
    self.iterator = iterator
  }

  func next() async -> Int? {
    var copy = iterator  // the copies share one subscription
    return await copy.next(isolation: MainActor.shared)
  }
}

/// What a loop saw, once it ended.
private struct Outcome: Sendable {
  var values: [Int] = []
  var highWaterMark = 0
  var overflow = 0
}

/// A `for await` loop over `signal.values(bufferingPolicy:)` in a task of its own, on an executor of its own. It takes
/// `before` values, then takes nothing (its body waits at `gate`) until the test opens the gate, then takes the rest,
/// yielding between values if `slowly`; with `leave`, it leaves the loop once the gate opens.
private final class Reader: Sendable {
  let executor = ProbeExecutor()
  let gate = Gate()
  let values: SignalSequence<Int, Never>
  private let seen = Locked<(values: [Int], watches: [(value: Int, gate: Gate)])>(([], []))
  private let task = Locked<Task<Outcome, Never>?>(nil)

  /// Starts the loop, and returns once its first `next()` has subscribed and suspended.
  init(
    _ signal: Signal<Int, Never>, _ policy: SignalBufferingPolicy, before: Int = 1, slowly: Bool = false,
    leave: Bool = false
  ) async {
    values = signal.values(bufferingPolicy: policy)
    let (values, gate, seen) = (values, gate, seen)
    task.value = Task(executorPreference: executor) {
      var outcome = Outcome()
      var iterator = values.makeAsyncIterator()
      while let value = await iterator.next() {
        outcome.values.append(value)
        let opened = seen.withLock { seen -> [Gate] in
          seen.values.append(value)
          return seen.watches.filter { $0.value == value }.map(\.gate)
        }
        for watch in opened { watch.open() }
        if outcome.values.count == before {
          await gate.wait()
          if leave { break }
        }
        if slowly { for _ in 0..<(value % 4) { await Task.yield() } }
      }
      outcome.highWaterMark = iterator.highWaterMark
      outcome.overflow = iterator.overflowCount
      return outcome
    }
    await executor.settled()
  }

  /// Returns once the loop has taken `value`.
  func reached(_ value: Int) async {
    let watch = Gate()
    let seenAlready = seen.withLock { seen -> Bool in
      if seen.values.contains(value) { return true }
      seen.watches.append((value, watch))
      return false
    }
    if seenAlready { watch.open() }
    await watch.wait()
  }

  /// What the loop took, once it has ended.
  var outcome: Outcome {
    get async { await task.value!.value }
  }

  func cancel() { task.value?.cancel() }
}

@Suite("A subject's send that waits: await subject.send(_:)")
struct SubjectSendTests {
  // MARK: Waiting, and who governs

  @Test("await send suspends while a bounded loop of the subject is full, and goes on as the loop makes room")
  func waitsForRoom() async {
    let subject = Subject<Int, Never>()
    let reader = await Reader(subject, .bounded(2))
    let sender = Sender(into: subject, Array(1...10))
    await sender.settled()
    // 1 went straight to the waiting loop, which then stopped taking; 2 and 3 fill its buffer; send(4) waits.
    #expect(sender.returned.value == [1, 2, 3])
    reader.gate.open()
    await sender.task.value
    subject.sendCompleted()
    let outcome = await reader.outcome
    #expect(outcome.values == Array(1...10))
    #expect(outcome.overflow == 0)
    #expect(outcome.highWaterMark <= 2)
  }

  @Test("a waiting sender goes on once the loop has taken its buffer down to half the bound, not before")
  func resumesAtHalf() async {
    let subject = Subject<Int, Never>()
    var iterator = subject.startWith(0).values(bufferingPolicy: .bounded(4)).makeAsyncIterator()
    // The loop has seen the first value: it subscribed, so the subject counts it from now on.
    #expect(await iterator.next() == 0)
    let executor = ProbeExecutor()
    let returned = Locked<[Int]>([])
    let sender = Task(executorPreference: executor) {
      for value in 1...20 {
        await subject.send(value)
        returned.append(value)
      }
    }
    await executor.settled()
    #expect(returned.value == Array(1...4))  // 1 to 4 fill the buffer of 4: send(5) waits
    #expect(await iterator.next() == 1)
    await executor.settled()
    #expect(returned.value == Array(1...4))  // 3 left, more than half: still waiting
    #expect(await iterator.next() == 2)
    await executor.settled()
    #expect(returned.value == Array(1...6))  // 2 left, half: woken, it sent 5 and 6 and waits again, full
    subject.sendCompleted()
    await sender.value
    var rest: [Int] = []
    while let value = await iterator.next() { rest.append(value) }
    #expect(rest == [3, 4, 5, 6])
  }

  @Test("the fullest bounded loop governs; an unbounded loop and a subscribeNext never hold the sender back")
  func fullestBoundedGoverns() async {
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let subscription = subject.subscribeNext { received.append($0) }
    let small = await Reader(subject, .bounded(2))
    let large = await Reader(subject, .bounded(6))
    let unbounded = await Reader(subject, .unbounded)
    let sender = Sender(into: subject, Array(1...20))
    await sender.settled()
    #expect(sender.returned.value == [1, 2, 3])  // the small loop is full
    small.gate.open()
    await small.reached(7)
    await sender.settled()
    // The small loop takes what comes; the large one holds 2 to 7, its bound: send(8) waits for it.
    #expect(sender.returned.value == Array(1...7))
    large.gate.open()
    unbounded.gate.open()
    await sender.task.value
    subject.sendCompleted()
    for reader in [small, large, unbounded] { #expect(await reader.outcome.values == Array(1...20)) }
    #expect(await small.outcome.highWaterMark <= 2)  // one sender: never past the bound
    #expect(await large.outcome.highWaterMark <= 6)
    #expect(await unbounded.outcome.highWaterMark == 0)  // counted for .bounded only
    #expect(received.value == Array(1...20))
    subscription.dispose()
  }

  @Test("with no bounded loop, await send never suspends: it sends at once, as sendNext does")
  func noBoundedLoopNeverSuspends() async {
    let subject = Subject<Int, Never>()
    let unbounded = await Reader(subject, .unbounded)
    let newest = await Reader(subject, .bufferingNewest(2))
    let oldest = await Reader(subject, .bufferingOldest(2))
    let sender = Sender(into: subject, Array(1...100))
    await sender.settled()
    #expect(sender.returned.value == Array(1...100))
    #expect(sender.executor.jobs == 1)  // one job, never resumed: it never suspended
    unbounded.gate.open()
    newest.gate.open()
    oldest.gate.open()
    subject.sendCompleted()
    #expect(await unbounded.outcome.values == Array(1...100))
    #expect(await newest.outcome.values == [1, 99, 100])
    #expect(await oldest.outcome.values == [1, 2, 3])
  }

  @Test("sendNext keeps its meaning beside a waiting sender: it never waits, and its excess is counted")
  func sendNextNeverWaits() async {
    let subject = Subject<Int, Never>()
    let reader = await Reader(subject, .bounded(2))
    let sender = Sender(into: subject, Array(1...5))
    await sender.settled()
    #expect(sender.returned.value == [1, 2, 3])
    for value in 100..<110 { subject.sendNext(value) }  // returns at once, though the loop is full
    #expect(reader.values.overflowCount == 10)
    reader.gate.open()
    await sender.task.value
    subject.sendCompleted()
    let outcome = await reader.outcome
    #expect(outcome.values == [1, 2, 3] + Array(100..<110) + [4, 5])
  }

  // MARK: The consuming task never waits on itself

  @Test("a loop body that sends back into the subject it reads goes on; its excess is counted")
  func loopSendsBackIntoItsOwnSubject() async {
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(2))
    let received = Locked<[Int]>([])
    let executor = SerialTaskExecutor()
    let ended = await finishes {
      await Task(executorPreference: executor) {
        // Once the loop's first next() has subscribed and suspended: 1 goes to the loop, 2 and 3 fill its buffer.
        executor.afterCurrentJob { for value in 1...3 { subject.sendNext(value) } }
        for await value in values {
          received.append(value)
          if value < 100 { await subject.send(value + 100) }  // the buffer is full: waiting would wait for good
          if received.value.count == 6 { break }
        }
      }.value
    }
    #expect(ended)
    #expect(received.value == [1, 2, 3, 101, 102, 103])
    #expect(values.overflowCount >= 1)
  }

  @Test("a loop body's send into its own subject goes on when the iterator's first next() ran in another task")
  @MainActor
  func loopPrimedInAnotherTask() async {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    let model = IteratorModel(subject.values(bufferingPolicy: .bounded(2)).makeAsyncIterator())
    // One task primes the iterator (subscribes, takes the current value), as a model's setup would.
    let first = await Task { @MainActor in await model.next() }.value
    for value in 1...3 { subject.sendNext(value) }  // 1 and 2 fill the loop; 3 is beyond its bound, counted
    let received = Locked<[Int]>([])
    // Another task loops: its first values come from the buffer, so it never waits in next() before it sends.
    let ended = await finishes {
      await Task { @MainActor in
        while let value = await model.next() {
          received.append(value)
          if value < 100 { await subject.send(value + 100) }  // the loop is full: only this task can make room
          if received.value.count == 6 { break }
        }
      }.value
    }
    #expect(first == 0)
    #expect(ended, "the loop's own send waited for the loop, whose task was recorded as the one that primed it")
    #expect(received.value == [1, 2, 3, 101, 102, 103])
  }

  @Test("a loop body's send into its own subject still waits while another bounded loop of the subject is full")
  func loopSendWaitsForAnotherLoop() async {
    let subject = Subject<Int, Never>()
    let other = await Reader(subject, .bounded(2))  // takes 1, then nothing until its gate opens
    let values = subject.values(bufferingPolicy: .bounded(2))
    let executor = SerialTaskExecutor()
    let sending = Gate()
    let sentBack = Locked<[Int]>([])
    let received = Locked<[Int]>([])
    let ended = await finishes {
      let loop = Task(executorPreference: executor) {
        // Once the loop's first next() has subscribed and suspended: 1 goes to each loop, 2 and 3 fill both buffers.
        executor.afterCurrentJob { for value in 1...3 { subject.sendNext(value) } }
        for await value in values {
          received.append(value)
          if value == 1 { sending.open() }
          if value < 100 {
            await subject.send(value + 100)  // not held back by this loop; held back by the other, full one
            sentBack.append(value + 100)
          }
          if received.value.count == 6 { break }
        }
      }
      await sending.wait()
      await withCheckedContinuation { continuation in executor.queue.async { continuation.resume() } }
      #expect(sentBack.value.isEmpty)  // the loop's task waits in send(101), for the other loop
      other.gate.open()
      await loop.value
    }
    #expect(ended)
    #expect(received.value == [1, 2, 3, 101, 102, 103])
    #expect(sentBack.value == [101, 102, 103])
    subject.sendCompleted()
    #expect(await other.outcome.values == [1, 2, 3, 101, 102, 103])
  }

  @Test("two loops of one subject that send back into it never wait on each other: the closing sender goes on")
  func twoLoopsRequeueIntoOneSubject() async {
    let subject = Subject<Int, Never>()
    let executor = SerialTaskExecutor()  // one queue: the two loops interleave only where they suspend
    let outcomes = await finishes {
      let loops = [100, 200].map { offset in
        let values = subject.values(bufferingPolicy: .bounded(2))
        return Task(executorPreference: executor) { () -> (values: [Int], overflow: Int) in
          // Once both loops have subscribed and suspended: 1 goes to each, 2 and 3 fill both.
          if offset == 200 { executor.afterCurrentJob { for value in 1...3 { subject.sendNext(value) } } }
          var iterator = values.makeAsyncIterator()
          var received: [Int] = []
          while let value = await iterator.next() {
            received.append(value)
            // Re-queued: each loop is full of the other's values when its body sends.
            if value < 100 { await subject.send(value + offset) }
            if received.count == 9 { break }
          }
          return (received, iterator.overflowCount)
        }
      }
      for loop in loops {
        let outcome = await loop.value
        #expect(Set(outcome.values) == [1, 2, 3, 101, 102, 103, 201, 202, 203])
        #expect(outcome.values.filter { $0 < 100 } == [1, 2, 3])
        #expect(outcome.values.filter { (100..<200).contains($0) } == [101, 102, 103])
        #expect(outcome.values.filter { $0 >= 200 } == [201, 202, 203])
      }
    }
    #expect(outcomes, "each loop's send waited for the other loop, whose task waited in its own send")
  }

  @Test("a send from a child task that the loop awaits waits for the loop: a cycle the library cannot see")
  func childTaskOfTheLoopWaits() async {
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(1))
    let received = Locked<[Int]>([])
    let suspended = Locked<Bool?>(nil)
    let executor = SerialTaskExecutor()
    let ended = await finishes {
      await Task(executorPreference: executor) {
        executor.afterCurrentJob { for value in 1...2 { subject.sendNext(value) } }  // 1 taken, 2 fills the buffer
        for await value in values {
          received.append(value)
          if value == 1 {
            let child = ProbeExecutor()
            let returned = Locked(false)
            await withTaskGroup(of: Void.self) { group in
              group.addTask(executorPreference: child) {
                await subject.send(100)  // only this loop can make room, and it waits for this child: a cycle
                returned.value = true
              }
              await child.settled()
              suspended.value = !returned.value
              group.cancelAll()  // the way out is the program's own: cancelled, the send goes on, counted
            }
          }
          if value == 100 { break }
        }
      }.value
    }
    #expect(ended)
    #expect(suspended.value == true)
    #expect(received.value == [1, 2, 100])
    #expect(values.overflowCount == 1)
  }

  // MARK: Several senders

  @Test("concurrent senders: the bound holds within one value per sender, and nothing is lost or reordered")
  func concurrentSenders() async {
    let (bound, senders, perSender) = (4, 4, 50)
    let subject = Subject<Int, Never>()
    let reader = await Reader(subject, .bounded(bound), slowly: true)
    let tasks = (0..<senders).map { sender in
      Sender(into: subject, (0..<perSender).map { sender * 1_000 + $0 })
    }
    for task in tasks { await task.settled() }
    // Every sender has suspended: one value went to the loop, the rest to its buffer, at most one per sender past
    // the bound.
    let sent = tasks.map { $0.returned.value.count }.reduce(0, +)
    #expect(sent <= 1 + bound + senders)
    #expect(reader.values.overflowCount <= senders)
    reader.gate.open()
    for task in tasks { await task.task.value }
    subject.sendCompleted()
    let outcome = await reader.outcome
    #expect(outcome.values.count == senders * perSender)
    for sender in 0..<senders {
      let own = outcome.values.filter { $0 / 1_000 == sender }
      #expect(own == (0..<perSender).map { sender * 1_000 + $0 })
    }
    #expect(outcome.highWaterMark <= bound + senders)
  }

  // MARK: Cancellation, termination, the loop's end

  @Test("a cancelled sender stops waiting: its value is sent all the same, and counted beyond the bound")
  func cancelledSenderSends() async {
    let subject = Subject<Int, Never>()
    let reader = await Reader(subject, .bounded(2))
    let sender = Sender(into: subject, Array(1...5))
    await sender.settled()
    #expect(sender.returned.value == [1, 2, 3])
    sender.task.cancel()
    await sender.task.value  // 4 and 5 go at once: a cancelled task never waits
    #expect(sender.returned.value == Array(1...5))
    #expect(reader.values.overflowCount == 2)
    reader.gate.open()
    subject.sendCompleted()
    #expect(await reader.outcome.values == Array(1...5))
  }

  @Test("termination frees waiting senders: their send returns, and the value goes nowhere")
  func terminationFreesSenders() async {
    let subject = Subject<Int, Never>()
    let reader = await Reader(subject, .bounded(2))
    let first = Sender(into: subject, Array(1...5))
    await first.settled()
    let second = Sender(into: subject, [6, 7])
    await second.settled()
    #expect(first.returned.value == [1, 2, 3] && second.returned.value.isEmpty)
    subject.sendCompleted()
    await first.task.value
    await second.task.value
    #expect(first.returned.value == Array(1...5) && second.returned.value == [6, 7])
    reader.gate.open()
    #expect(await reader.outcome.values == [1, 2, 3])
  }

  @Test("a loop that ends frees the senders it held back: they send at once")
  func loopEndFreesSenders() async {
    let subject = Subject<Int, Never>()
    let reader = await Reader(subject, .bounded(2), leave: true)
    let received = Locked<[Int]>([])
    let subscription = subject.subscribeNext { received.append($0) }
    let sender = Sender(into: subject, Array(1...5))
    await sender.settled()
    #expect(sender.returned.value == [1, 2, 3])
    reader.gate.open()  // the loop leaves: its subscription is disposed, its demand ended
    await sender.task.value
    #expect(await reader.outcome.values == [1])
    #expect(received.value == Array(1...5))
    subscription.dispose()
  }

  // MARK: Replay and behaviour subjects

  @Test("ReplaySubject: the replay fills the loop at once, counted; a live await send then waits for room")
  func replaySubject() async {
    let subject = ReplaySubject<Int, Never>(capacity: 10)
    for value in 1...5 { subject.sendNext(value) }
    // The replay, 1 to 5, is sent while the loop subscribes: buffered and counted (3 beyond the bound of 2). The loop
    // takes 1 and stops; 2 to 5 wait.
    let reader = await Reader(subject, .bounded(2))
    let sender = Sender(into: subject, Array(6...8))
    await sender.settled()
    #expect(sender.returned.value.isEmpty)
    reader.gate.open()
    await sender.task.value
    subject.sendCompleted()
    let outcome = await reader.outcome
    #expect(outcome.values == Array(1...8))
    #expect(outcome.overflow == 3)
  }

  @Test("BehaviorSubject: the current value takes the loop's room; await send waits, and updates value as it sends")
  func behaviorSubject() async {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    let reader = await Reader(subject, .bounded(1))  // takes 0 (the current value) and stops
    let sender = Sender(into: subject, [1, 2, 3])
    await sender.settled()
    #expect(sender.returned.value == [1])  // 1 fills the buffer of one; send(2) waits
    #expect(subject.value == 1)
    reader.gate.open()
    await sender.task.value
    #expect(subject.value == 3)
    subject.sendCompleted()
    let outcome = await reader.outcome
    #expect(outcome.values == [0, 1, 2, 3])
    #expect(outcome.overflow == 0)
  }

  // MARK: Anti-toy: a waiting sender costs nothing

  @Test("a sender waiting 1 s on a loop that takes nothing is resumed 0 times and uses no CPU meanwhile")
  func waitingCostsNothing() async {
    // In a process of its own, so that the CPU time measured is this test's alone.
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      if let failure = await waitingSenderReport() {
        FileHandle.standardError.write(Data(failure.utf8))
        exit(1)
      }
    }
    let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(errors.isEmpty, "\(errors)")
  }
}

/// Holds a sender for one second on a loop that takes nothing; returns what went wrong, or `nil`.
private func waitingSenderReport() async -> String? {
  let subject = Subject<Int, Never>()
  let reader = await Reader(subject, .bounded(2))
  let sender = Sender(into: subject, Array(1...10))
  await sender.settled()
  guard sender.returned.value == [1, 2, 3] else { return "the sender did not wait: it sent \(sender.returned.value)" }
  let jobs = sender.executor.jobs
  let cpu = processCPUTime()
  // A sleep, because what is measured is what happens over a length of time: a sender that polls, or is woken
  // to look again, would show up as jobs on its executor and as CPU time.
  try? await Task.sleep(for: .seconds(1))
  let used = processCPUTime() - cpu
  let resumed = sender.executor.jobs - jobs
  var failures: [String] = []
  if resumed != 0 { failures.append("the waiting sender was resumed \(resumed) times in 1 s") }
  if used > 0.1 { failures.append("the process used \(used) s of CPU time in 1 s of waiting") }
  if sender.returned.value != [1, 2, 3] { failures.append("the sender went on: it sent \(sender.returned.value)") }
  reader.gate.open()
  await sender.task.value
  subject.sendCompleted()
  if await reader.outcome.values != Array(1...10) { failures.append("the loop did not receive 1 to 10") }
  return failures.isEmpty ? nil : failures.joined(separator: "; ")
}

/// The CPU time of the process so far, user and system, in seconds.
private func processCPUTime() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
