import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

// The promises of the Flow Control article's "Into an actor" (Interop.docc) that BoundedDeliveryTests does not
// already hold: what counts against the bound while the job delivers, the refill, the slack of a hop, where a paused
// source resumes, and what the dropping policies keep. Each test stalls the actor on its queue (`closeGate`), so
// that what waits for it is known, then lets it run.

/// A range whose reads are reported: how far a source that can pause has walked, and where each read ran.
private struct ReportedWalk: Sequence, Sendable {
  let range: Range<Int>
  let onRead: @Sendable (Int) -> Void

  struct Iterator: IteratorProtocol {
    var base: Range<Int>.Iterator
    let onRead: @Sendable (Int) -> Void
    mutating func next() -> Int? {
      guard let value = base.next() else { return nil }
      onRead(value)
      return value
    }
  }

  func makeIterator() -> Iterator { Iterator(base: range.makeIterator(), onRead: onRead) }
}

/// Marks `queue`, so that `isOn(_:)` tells whether the caller runs on it.
private final class QueueMark: Sendable {
  private let key = DispatchSpecificKey<Bool>()

  init(_ queue: DispatchQueue) {
    queue.setSpecific(key: key, value: true)
  }

  var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

@Suite("Flow Control, into an actor: the article's promises")
struct FlowControlIntoActorTests {
  /// Walks `count` values into a stalled `TallyActor` with `.bounded(limit)`, subscribed on a scheduler of its own;
  /// once the walk has paused, lets the actor run to the end. Returns how far the walk read before the actor ran,
  /// how far it had read at each callback, what the actor received, and the subscription's high-water mark.
  private func walkIntoStalledActor(
    count: Int, limit: Int
  ) async -> (readWhileStalled: Int, readAtCallback: [Int], values: [Int], highWaterMark: Int) {
    let actor = TallyActor()
    let read = Locked(0)
    let source = QueueScheduler(name: "source")
    let readAtCallback = Locked<[Int]>([])
    let gate = closeGate(on: actor.scheduler)
    let subscribed = Locked<IsolatedSubscription?>(nil)
    source.schedule {
      subscribed.value = Signal<Int, Never>.from(CountedWalk(range: 0..<count, read: read))
        .subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(limit)) { actor, value in
          readAtCallback.withLock { $0.append(read.value) }
          actor.take(value)
        }
    }
    await drained(source)
    let readWhileStalled = read.value
    gate.signal()
    while await actor.count < count {
      await drained(actor.scheduler)
      await drained(source)
    }
    return (readWhileStalled, readAtCallback.value, await actor.values, subscribed.value?.highWaterMark ?? 0)
  }

  @Test("the values the running job has taken count until their callbacks have run: an emptied queue resumes nothing")
  func takenValuesCount() async {
    // The job takes the 8 in one swap: the queue is empty, the 8 still count.
    let run = await walkIntoStalledActor(count: 100, limit: 8)
    #expect(run.readWhileStalled == 8)
    // Nothing is given back before 8 / 2 callbacks have run: the source stays paused until then.
    #expect(Array(run.readAtCallback.prefix(4)) == [8, 8, 8, 8])
    #expect(run.values == Array(0..<100))
    #expect(run.highWaterMark <= 8)
  }

  @Test("values carried over a spent budget still count: past 2 budgets, n = 400 resumes nothing before 256")
  func carriedValuesCount() async {
    let run = await walkIntoStalledActor(count: 1_000, limit: 400)
    #expect(run.readWhileStalled == 400)
    // The first run delivers 128 and carries 272 (given back: 128, 272 still wait, more than 200); the second
    // delivers 128 more and gives them back, 144 waiting: the room reopens only then.
    #expect(run.readAtCallback.prefix(2 * isolatedDeliveryBudget).allSatisfy { $0 == 400 })
    #expect(run.values == Array(0..<1_000))
    #expect(run.highWaterMark <= 400)
  }

  @Test("a value delivered at once, sent on the actor's executor with nothing waiting, never waits: not counted")
  func atOnceValuesNeverWait() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(4)) { actor, value in
      actor.take(value)
    }
    let deliveredBeforeReturning = Locked<[Int]>([])
    actor.scheduler.queue.async {
      for value in 1...10 {
        subject.sendNext(value)
        deliveredBeforeReturning.append(actor.assumeIsolated { $0.count })
      }
    }
    await drained(actor.scheduler)
    #expect(deliveredBeforeReturning.value == Array(1...10))
    #expect(subscription.highWaterMark == 0)
    #expect(subscription.overflowCount == 0)
    subscription.dispose()
  }

  @Test("the job gives back n / 2 as it delivers: the source refills while the actor works through the rest")
  func refillWhileDelivering() async {
    let actor = TallyActor()
    let read = Locked(0)
    let refilled = DispatchSemaphore(value: 0)
    let walk = ReportedWalk(range: 0..<100) { value in
      read.increment()
      if value == 11 { refilled.signal() }  // 8, then 4 more once 4 of them have been delivered
    }
    let source = QueueScheduler(name: "source")
    let refilledInTime = Locked<Bool?>(nil)
    let gate = closeGate(on: actor.scheduler)
    let subscribed = Locked<IsolatedSubscription?>(nil)
    source.schedule {
      subscribed.value = Signal<Int, Never>.from(walk)
        .subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(8)) { actor, value in
          // The fifth callback of the job's first batch: 4 have been given back, and the source reads on its queue
          // while this job still has values 4 to 7 in hand.
          if value == 4 { refilledInTime.value = refilled.wait(timeout: .now() + .seconds(60)) == .success }
          actor.take(value)
        }
    }
    await drained(source)
    #expect(read.value == 8)
    gate.signal()
    while await actor.count < 100 {
      await drained(actor.scheduler)
      await drained(source)
    }
    #expect(refilledInTime.value == true)
    #expect(await actor.values == Array(0..<100))
    #expect(subscribed.value?.overflowCount == 0)
  }

  @Test("a hop's 32 values are slack, not overflow: a paused source behind deliver(on:) stays within n + 32")
  func hopSlackIsNotOverflow() async {
    let actor = TallyActor()
    let read = Locked(0)
    let source = QueueScheduler(name: "source")
    let hop = QueueScheduler(name: "hop")
    let gate = closeGate(on: actor.scheduler)
    let subscription = Signal<Int, Never>.from(CountedWalk(range: 0..<1_000, read: read))
      .subscribe(on: source)
      .deliver(on: hop)
      .subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(8)) { actor, value in actor.take(value) }
    for _ in 0..<4 {
      await drained(source)
      await drained(hop)
    }
    #expect(read.value >= 8)
    #expect(read.value <= 8 + 32)  // the actor has taken none: the source paused
    gate.signal()
    while await actor.count < 1_000 {
      await drained(actor.scheduler)
      await drained(hop)
      await drained(source)
    }
    #expect(await actor.values == Array(0..<1_000))
    #expect(subscription.overflowCount == 0)
    #expect(subscription.highWaterMark <= 8 + 32)
  }

  @Test("a Signal.from without subscribe(on:), subscribed in a task, resumes on the actor's executor")
  func resumesWhereTheActorMakesRoom() async {
    let actor = TallyActor()
    let onActor = QueueMark(actor.scheduler.queue)
    let readOffActor = Locked(0)
    let readOnActor = Locked(0)
    let walk = ReportedWalk(range: 0..<100) { _ in
      (onActor.isCurrent ? readOnActor : readOffActor).increment()
    }
    let gate = closeGate(on: actor.scheduler)
    let subscription = await Task.detached {
      // In a task, with no scheduler: the walk runs here, at once, until 8 wait for the stalled actor.
      Signal<Int, Never>.from(walk).subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(8)) { actor, value in
        actor.take(value)
      }
    }.value
    #expect(readOffActor.value == 8)
    gate.signal()
    while await actor.count < 100 { await drained(actor.scheduler) }
    #expect(readOffActor.value == 8)
    #expect(readOnActor.value == 92)  // every read after the first pause, on the actor's queue
    #expect(await actor.values == Array(0..<100))
    subscription.dispose()
  }

  @Test("a source with subscribe(on:) reads on its own queue, paused and resumed there, never on the actor's")
  func resumesOnItsOwnQueue() async {
    let actor = TallyActor()
    let reader = QueueScheduler(name: "reader")
    let onReader = QueueMark(reader.queue)
    let readElsewhere = Locked(0)
    let walk = ReportedWalk(range: 0..<100) { _ in
      if !onReader.isCurrent { readElsewhere.increment() }
    }
    let gate = closeGate(on: actor.scheduler)
    let subscription = await Task.detached {
      Signal<Int, Never>.from(walk).subscribe(on: reader)
        .subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(8)) { actor, value in actor.take(value) }
    }.value
    await drained(reader)
    gate.signal()
    while await actor.count < 100 {
      await drained(actor.scheduler)
      await drained(reader)
    }
    #expect(readElsewhere.value == 0)
    #expect(await actor.values == Array(0..<100))
    subscription.dispose()
  }

  @Test("the dropping policies carry no pause: Signal.from runs to its end into a stalled actor")
  func droppingPoliciesDoNotPause() async {
    let actor = TallyActor()
    let read = Locked(0)
    let gate = closeGate(on: actor.scheduler)
    let subscription = await Task.detached {
      Signal<Int, Never>.from(CountedWalk(range: 0..<1_000, read: read))
        .subscribeNext(isolatedTo: actor, bufferingPolicy: .bufferingNewest(4)) { actor, value in actor.take(value) }
    }.value
    #expect(read.value == 1_000)  // the walk has ended: nothing paused it
    #expect(subscription.droppedCount == 996)
    #expect(subscription.highWaterMark == 4)
    gate.signal()
    await drained(actor.scheduler)
    #expect(await actor.values == [996, 997, 998, 999])
    #expect(subscription.isDisposed)  // completed: the completion was not dropped
  }

  @Test("the values the running job has taken are delivered, not dropped: at most 2n are held")
  func takenValuesAreNotDropped() async {
    for limit in [1, 3] {
      let actor = TallyActor()
      let subject = Subject<Int, Never>()
      let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .bufferingNewest(limit)) {
        actor, value in
        actor.take(value)
        // The job has taken 1...limit; these wait behind them, and push each other out, oldest first.
        if value == 1 { for next in 101...110 { subject.sendNext(next) } }
      }
      let gate = closeGate(on: actor.scheduler)
      onPlainThread { for value in 1...limit { subject.sendNext(value) } }
      gate.signal()
      while await actor.count < 2 * limit { await drained(actor.scheduler) }
      #expect(await actor.values == Array(1...limit) + Array((111 - limit)...110))
      #expect(subscription.droppedCount == 10 - limit)
      #expect(subscription.highWaterMark == limit)
      subscription.dispose()
    }
  }

  @Test("disposing discards the values still waiting, and does not count them as dropped")
  func disposingDiscardsWithoutCounting() async {
    let actor = TallyActor()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(isolatedTo: actor, bufferingPolicy: .bufferingOldest(4)) {
      actor, value in
      actor.take(value)
    }
    let gate = closeGate(on: actor.scheduler)
    onPlainThread { for value in 1...10 { subject.sendNext(value) } }
    #expect(subscription.droppedCount == 6)
    subscription.dispose()  // 1...4 still wait
    gate.signal()
    await drained(actor.scheduler)
    #expect(await actor.count == 0)
    #expect(subscription.droppedCount == 6)
  }

  @Test("a limit of 0 stops the program with a precondition failure")
  func limitMustBePositive() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let actor = TallyActor()
      _ = Signal<Int, Never>.never.subscribeNext(isolatedTo: actor, bufferingPolicy: .bounded(0)) { _, _ in }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("subscribeNext(isolatedTo:bufferingPolicy:)"))
    await #expect(processExitsWith: .failure) {
      let actor = TallyActor()
      _ = Signal<Int, Never>.never.bind(isolatedTo: actor, bufferingPolicy: .bufferingNewest(0)) { _, _ in }
    }
  }
}
