import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSignals

/// An actor on a `QueueScheduler` that counts what its callbacks saw, and whether they came in order.
actor TallyActor {
  nonisolated let scheduler = QueueScheduler(name: "TallyActor")
  var values: [Int] = []
  var count = 0
  var last = Int.min
  var inOrder = true
  var ended: String?

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    scheduler.asUnownedSerialExecutor()
  }

  func take(_ value: Int, keeping: Bool = true) {
    if value <= last { inOrder = false }
    last = value
    count += 1
    if keeping { values.append(value) }
  }
}

/// A sequence that counts the elements read from it: how far a source that can pause has walked.
struct CountedWalk: Sequence, Sendable {
  let range: Range<Int>
  let read: Locked<Int>

  struct Iterator: IteratorProtocol {
    var base: Range<Int>.Iterator
    let read: Locked<Int>
    mutating func next() -> Int? {
      guard let value = base.next() else { return nil }
      read.increment()
      return value
    }
  }

  func makeIterator() -> Iterator { Iterator(base: range.makeIterator(), read: read) }
}

@Suite("Bounded delivery into an actor: at most n values wait, sources pause, the rest is counted")
struct BoundedDeliveryTests {
  @Test("a thread's sendNext into a stalled actor never waits: a million sends return, 1M - n counted exactly")
  func stalledActorOverflowIsCounted() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let total = 1_000_000
    let limit = 64
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(limit)) { actor, value in
      actor.take(value, keeping: false)
    }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { for value in 0..<total { subject.sendNext(value) } }  // returns: nothing waits for the actor
    #expect(subscription.overflowCount == total - limit)
    #expect(subscription.highWaterMark == total)
    #expect(subscription.droppedCount == 0)
    gate.signal()
    while await actor.count < total { await drained(actor.scheduler) }
    #expect(await actor.inOrder)
    #expect(await actor.last == total - 1)  // nothing lost
    subscription.dispose()
  }

  @Test("Signal.from pauses once n values wait for a stalled actor, and walks on as the actor takes them")
  func sourcePausesForTheActor() async {
    let actor = TallyActor()
    let read = Locked(0)
    let source = QueueScheduler(name: "source")
    let limit = 16
    let gate = closeGate(on: actor.scheduler)
    let subscribed = Locked<IsolatedSubscription?>(nil)
    // Subscribed on a scheduler, the walk runs at once, inside the subscription, until it pauses.
    source.schedule {
      subscribed.value = Signal<Int, Never>.from(CountedWalk(range: 0..<1_000, read: read))
        .map { $0 * 2 }
        .subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(limit)) { actor, value in actor.take(value) }
    }
    await drained(source)
    #expect(read.value == limit)  // paused: the actor has taken none
    gate.signal()
    while await actor.count < 1_000 { await drained(actor.scheduler) }
    let subscription = subscribed.value!
    #expect(await actor.values == (0..<1_000).map { $0 * 2 })
    #expect(subscription.highWaterMark <= limit)
    #expect(subscription.overflowCount == 0)
    #expect(subscription.isDisposed)  // completed
  }

  @Test("through a hop: the source pauses at the bound plus the hop's 32, and none of that counts as overflow")
  func pausesThroughAHop() async {
    let actor = TallyActor()
    let read = Locked(0)
    let limit = 8
    let gate = closeGate(on: actor.scheduler)
    let reader = QueueScheduler(name: "reader")
    let parser = QueueScheduler(name: "parser")
    let subscription = Signal<Int, Never>.from(CountedWalk(range: 0..<2_000, read: read))
      .subscribe(on: reader)
      .deliver(on: parser)
      .map { $0 + 1 }
      .subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(limit)) { actor, value in actor.take(value) }
    // The actor is stalled. The reader fills the hop and pauses; the parser's block hands the hop's values to the
    // actor's queue, which closes the bound; the reader, resumed by the hop's room, finds none and pauses for good.
    for _ in 0..<3 {
      await drained(reader)
      await drained(parser)
    }
    #expect(read.value <= limit + 32)  // unpaused, the walk would have read all 2,000 in the reader's first block
    gate.signal()
    while await actor.count < 2_000 { await drained(actor.scheduler) }
    #expect(await actor.values == Array(1...2_000))
    #expect(subscription.highWaterMark <= limit + 32)
    #expect(subscription.overflowCount == 0)
  }

  @Test("disposing a subscription whose source is paused: the source stops, and nothing more is delivered")
  func disposingReleasesThePausedSource() async {
    let actor = TallyActor()
    let read = Locked(0)
    let source = QueueScheduler(name: "source")
    let gate = closeGate(on: actor.scheduler)
    let subscribed = Locked<IsolatedSubscription?>(nil)
    source.schedule {
      subscribed.value = Signal<Int, Never>.from(CountedWalk(range: 0..<1_000, read: read))
        .subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(8)) { actor, value in actor.take(value) }
    }
    await drained(source)
    #expect(read.value == 8)
    subscribed.value!.dispose()
    await drained(source)  // a resumption, had it been scheduled, has run
    gate.signal()
    await drained(actor.scheduler)
    #expect(read.value == 8)
    #expect(await actor.count == 0)  // the waiting values were discarded
  }

  @Test("a subject's await send waits for room in a bounded actor subscription, and nothing overflows")
  func awaitSendWaitsForTheActor() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(4)) { actor, value in
      actor.take(value)
    }
    let gate = closeGate(on: actor.scheduler)
    let sentFour = ReleaseGate()
    let sender = Task.detached {
      for value in 0..<20 {
        await subject.send(value)
        if value == 3 { sentFour.open() }
      }
    }
    await sentFour.wait()
    #expect(subscription.bound?.demand?.hasRoom == false)  // the fifth send finds no room: it waits
    gate.signal()
    await sender.value
    while await actor.count < 20 { await drained(actor.scheduler) }
    #expect(await actor.values == Array(0..<20))
    #expect(subscription.overflowCount == 0)
    #expect(subscription.highWaterMark <= 4)
    subscription.dispose()
  }

  @Test("a bounded actor subscription counts as a bounded reader for await send: ended, sends say .loopsEnded")
  func endedSubscriptionEndsTheLoops() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(4)) { actor, value in
      actor.take(value)
    }
    #expect(await subject.send(1) == .sent)
    subscription.dispose()
    #expect(await subject.send(2) == .loopsEnded)
    let unbounded = subject.subscribeNext(isolatedTo: actor) { actor, value in actor.take(value) }
    #expect(await subject.send(3) == .loopsEnded)  // an unbounded subscription never holds a send back
    unbounded.dispose()
  }

  @Test("bufferingNewest(1) into a stalled actor keeps the latest value, counts the rest, and still completes")
  func newestKeepsTheLatest() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(
      isolatedTo: actor, bufferingPolicy: .bufferingNewest(1), { actor, value in actor.take(value) },
      error: { _, _ in }, completed: { actor in actor.ended = "completed" })
    let gate = closeGate(on: actor.scheduler)
    onPlainThread {
      for value in 1...100 { subject.sendNext(value) }
      subject.sendCompleted()  // a terminal event is never dropped
    }
    #expect(subscription.droppedCount == 99)
    #expect(subscription.highWaterMark == 1)
    gate.signal()
    await drained(actor.scheduler)
    #expect(await actor.values == [100])
    #expect(await actor.ended == "completed")
    #expect(subscription.overflowCount == 0)
  }

  @Test("bufferingNewest(3) drops the oldest waiting values, order kept for the rest")
  func newestKeepsTheLatestFew() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .bufferingNewest(3)) { actor, value in
      actor.take(value)
    }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { for value in 1...1_000 { subject.sendNext(value) } }
    gate.signal()
    await drained(actor.scheduler)
    #expect(await actor.values == [998, 999, 1_000])
    #expect(subscription.droppedCount == 997)
    subscription.dispose()
  }

  @Test("bufferingOldest(2) keeps the first values waiting and drops the new ones; the failure is delivered")
  func oldestKeepsTheFirst() async {
    let actor = TallyActor()
    let subject = Subject<Int, TestError>()
    let subscription = subject.subscribeNext(
      isolatedTo: actor, bufferingPolicy: .bufferingOldest(2), { actor, value in actor.take(value) },
      error: { actor, _ in actor.ended = "error" }, completed: { _ in })
    let gate = closeGate(on: actor.scheduler)
    onPlainThread {
      for value in 1...10 { subject.sendNext(value) }
      subject.sendError(TestError())
    }
    #expect(subscription.droppedCount == 8)
    gate.signal()
    await drained(actor.scheduler)
    #expect(await actor.values == [1, 2])
    #expect(await actor.ended == "error")
  }

  @Test("a dropping policy drops from a backlog carried over a spent budget, oldest first")
  func newestDropsFromTheCarriedBacklog() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let budget = isolatedDeliveryBudget
    let limit = budget + 32  // the first job takes them all, delivers one budget and carries 32 to its continuation
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .bufferingNewest(limit)) {
      actor, value in
      actor.take(value)
      // Queued on the actor now, this block runs between the first job and its continuation, while the 32 are
      // carried: its values push them out, oldest first, once `limit` wait.
      if value == 0 {
        actor.scheduler.queue.async { for next in limit..<(limit * 2) { subject.sendNext(next) } }
      }
    }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { for value in 0..<limit { subject.sendNext(value) } }
    gate.signal()
    while await actor.count < budget + limit { await drained(actor.scheduler) }
    #expect(await actor.values == Array(0..<budget) + Array(limit..<(limit * 2)))
    #expect(subscription.droppedCount == 32)
    subscription.dispose()
  }

  @Test(
    "a batch carried over a spent budget waits again: a dropping bound trims it with what queued meanwhile",
    arguments: [
      SignalBufferingPolicy.bufferingNewest(isolatedDeliveryBudget + 32), .bufferingOldest(isolatedDeliveryBudget + 32),
    ])
  func carriedBatchIsTrimmed(policy: SignalBufferingPolicy) async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let budget = isolatedDeliveryBudget
    let limit = budget + 32  // the first job takes them all, delivers one budget and carries 32 back
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: policy) { actor, value in
      actor.take(value)
      // Sent on the actor while the first job holds its batch: `limit` more wait, and then the carried 32 wait
      // beside them: 32 past the limit, which the carry drops.
      if value == 0 { for next in limit..<(limit * 2) { subject.sendNext(next) } }
    }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { for value in 0..<limit { subject.sendNext(value) } }
    gate.signal()
    while await actor.count < budget + limit { await drained(actor.scheduler) }
    let values = await actor.values
    if case .bufferingNewest = policy {
      #expect(values == Array(0..<budget) + Array(limit..<(limit * 2)))  // the carried, oldest, went
    } else {
      #expect(values == Array(0..<limit) + Array(limit..<(limit + budget)))  // the newest queued went
    }
    #expect(subscription.droppedCount == 32)
    #expect(subscription.highWaterMark <= limit)
    subscription.dispose()
  }

  @Test("bind(isolatedTo:bufferingPolicy:) keeps the latest value for a stalled actor and ends with the signal")
  func boundedBinding() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let binding = subject.bind(isolatedTo: actor, bufferingPolicy: .bufferingNewest(1)) { actor, value in
      actor.take(value)
    }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread {
      for value in 1...50 { subject.sendNext(value) }
      subject.sendCompleted()
    }
    gate.signal()
    await drained(actor.scheduler)
    #expect(await actor.values == [50])
    #expect(binding.droppedCount == 49)
    #expect(binding.isDisposed)
  }

  @Test("unbounded as a policy: delivered as without one, with counts of zero")
  func unboundedPolicy() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .unbounded) { actor, value in
      actor.take(value)
    }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { for value in 0..<1_000 { subject.sendNext(value) } }
    gate.signal()
    while await actor.count < 1_000 { await drained(actor.scheduler) }
    #expect(await actor.values == Array(0..<1_000))
    #expect(subscription.overflowCount == 0 && subscription.droppedCount == 0 && subscription.highWaterMark == 0)
    #expect(subscription.bufferingPolicy == .unbounded)
    subscription.dispose()
  }

  @Test("the bound keeps the budget: a block queued behind a bounded backlog runs after one budget of callbacks")
  func boundedKeepsTheBudget() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let budget = isolatedDeliveryBudget
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(budget * 4)) {
      actor, value in
      actor.take(value)
    }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { for value in 0..<(budget * 3) { subject.sendNext(value) } }
    let seenByMarker = Locked(-1)
    actor.scheduler.queue.async { actor.assumeIsolated { seenByMarker.value = $0.count } }
    gate.signal()
    while await actor.count < budget * 3 { await drained(actor.scheduler) }
    #expect(seenByMarker.value == budget)
    subscription.dispose()
  }
}
