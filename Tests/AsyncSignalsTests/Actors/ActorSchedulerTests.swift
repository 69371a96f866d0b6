import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// An actor that counts blocks run in its isolation.
actor Counter {
  var values: [Int] = []
  func record(_ value: Int) { values.append(value) }
}

@Suite("ActorScheduler")
struct ActorSchedulerTests {
  @Test("blocks run in the actor's isolation, in the order scheduled, with the scheduler current")
  func fifoInIsolation() async {
    let counter = Counter()
    let scheduler = ActorScheduler(counter)
    let done = Locked<CheckedContinuation<Void, Never>?>(nil)
    await withCheckedContinuation { continuation in
      done.value = continuation
      onPlainThread {
        for value in 0..<200 {
          scheduler.schedule {
            counter.assertIsolated()
            precondition(Schedulers.current === scheduler, "ActorScheduler: not current while a block runs")
            counter.assumeIsolated { $0.record(value) }
          }
        }
        scheduler.schedule { done.value?.resume() }
      }
    }
    #expect(await counter.values == Array(0..<200))
  }

  @Test("a block disposed before it runs never runs")
  func disposedBlockNeverRuns() async {
    let actor = QueueActor()
    let scheduler = ActorScheduler(actor)
    let gate = closeGate(on: actor.scheduler)
    let first = scheduler.schedule { actor.assumeIsolated { $0.log.append("first") } }
    scheduler.schedule { actor.assumeIsolated { $0.log.append("second") } }
    first?.dispose()
    gate.signal()
    await drained(actor.scheduler)
    #expect(await actor.log == ["second"])
  }

  @Test("blocks scheduled while the actor is busy run as one job, ahead of a block queued mid-burst")
  func oneJobPerBurstOfBlocks() async {
    let actor = QueueActor()
    let scheduler = ActorScheduler(actor)
    let gate = closeGate(on: actor.scheduler)
    scheduler.schedule { actor.assumeIsolated { $0.log.append("0") } }  // schedules the one job, behind the gate
    actor.scheduler.queue.async { actor.assumeIsolated { $0.log.append("marker") } }
    for value in 1..<50 { scheduler.schedule { actor.assumeIsolated { $0.log.append("\(value)") } } }
    gate.signal()
    await drained(actor.scheduler)
    await drained(actor.scheduler)
    // Were there a job per block, blocks 1...49 would run after the marker.
    #expect(await actor.log == (0..<50).map { "\($0)" } + ["marker"])
  }

  @Test("schedule never runs the block before it returns, even on the actor")
  func alwaysAsynchronous() async {
    let actor = QueueActor()
    let scheduler = ActorScheduler(actor)
    actor.scheduler.queue.async {
      scheduler.schedule { actor.assumeIsolated { $0.log.append("block") } }
      actor.assumeIsolated { $0.log.append("returned") }
    }
    await drained(actor.scheduler)
    await drained(actor.scheduler)
    #expect(await actor.log == ["returned", "block"])
  }

  @Test("deliver(on:) an actor scheduler delivers each event in the actor's isolation, in order")
  func deliverOnActor() async {
    let counter = Counter()
    let scheduler = ActorScheduler(counter)
    let subject = Subject<Int, Never>()
    let finished = Locked<CheckedContinuation<Void, Never>?>(nil)
    await withCheckedContinuation { continuation in
      finished.value = continuation
      subject.deliver(on: scheduler).subscribeNext(
        { value in counter.assumeIsolated { $0.record(value) } }, completed: { finished.value?.resume() })
      onPlainThread {
        for value in 0..<100 { subject.sendNext(value) }
        subject.sendCompleted()
      }
    }
    #expect(await counter.values == Array(0..<100))
  }

  @Test("subscribe(on:) an actor scheduler runs the signal's work in the actor's isolation")
  func subscribeOnActor() async {
    let counter = Counter()
    let scheduler = ActorScheduler(counter)
    let ranIsolated = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      Signal<Int, Never>.create { subscriber in
        counter.assertIsolated()
        subscriber.sendNext(Schedulers.current === scheduler ? 1 : 0)
        subscriber.sendCompleted()
        return nil
      }.subscribe(on: scheduler).subscribeNext { continuation.resume(returning: $0 == 1) }
    }
    #expect(ranIsolated)
  }

  @Test("delay, throttle and timeout on an actor scheduler deliver in the actor's isolation")
  func timeOperatorsOnActor() async {
    let counter = Counter()
    let scheduler = ActorScheduler(counter)
    let source = Signal<Int, Never>.from([1, 2, 3])
    let delayed = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
      let values = Locked<[Int]>([])
      source.delay(.milliseconds(1), on: scheduler).subscribeNext(
        { value in
          counter.assertIsolated()
          values.append(value)
        }, completed: { continuation.resume(returning: values.value) })
    }
    #expect(delayed == [1, 2, 3])
    let subject = Subject<Int, Never>()
    let throttled = Locked<[Int]>([])
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      subject.throttle(.milliseconds(1), on: scheduler).subscribeNext { value in
        counter.assertIsolated()  // sent by the throttle's timer, on the actor
        throttled.append(value)
        if value == 2 { continuation.resume() }
      }
      subject.sendNext(1)
      subject.sendNext(2)
    }
    #expect(throttled.value.last == 2)  // 1 too if the timer fired between the sends
    let timedOut = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      Signal<Int, Never>.never.timeout(.milliseconds(1), on: scheduler).subscribeNext(
        { _ in },
        error: { _ in
          counter.assertIsolated()
          continuation.resume(returning: true)
        })
    }
    #expect(timedOut)
  }

  @Test("a dated block runs on the actor, after its date")
  func datedBlock() async {
    let counter = Counter()
    let scheduler = ActorScheduler(counter)
    let start = Date()
    let ranAt = await withCheckedContinuation { (continuation: CheckedContinuation<Date, Never>) in
      scheduler.schedule(afterDelay: .milliseconds(20)) {
        counter.assertIsolated()
        continuation.resume(returning: Date())
      }
    }
    #expect(ranAt.timeIntervalSince(start) >= 0.019)
  }

  @Test("interval on an actor scheduler ticks in the actor's isolation; disposing stops the ticks")
  func intervalOnActor() async {
    let counter = Counter()
    let scheduler = ActorScheduler(counter)
    let values = await withCheckedContinuation { (continuation: CheckedContinuation<[Date], Never>) in
      let ticks = Locked<[Date]>([])
      _ = Signal<Date, Never>.interval(.milliseconds(2), on: scheduler).take(3).subscribeNext(
        { date in
          counter.assertIsolated()
          ticks.append(date)
        }, completed: { continuation.resume(returning: ticks.value) })
    }
    #expect(values.count == 3)
  }

  @Test("the scheduler holds its actor strongly")
  func holdsActor() {
    weak var weakCounter: Counter?
    var scheduler: ActorScheduler<Counter>?
    do {
      let counter = Counter()
      weakCounter = counter
      scheduler = ActorScheduler(counter)
    }
    #expect(weakCounter != nil)
    #expect(scheduler?.actor === weakCounter)
    scheduler = nil
    #expect(weakCounter == nil)
  }

  @Test("an actor that stores its own scheduler is kept alive by it: the cycle the docs warn of")
  func storedSchedulerIsACycle() async {
    actor Keeper {
      var scheduler: ActorScheduler<Keeper>?
      func keepOwnScheduler() { scheduler = ActorScheduler(self) }
      func breakCycle() { scheduler = nil }
    }
    weak var weakKeeper: Keeper?
    do {
      let keeper = Keeper()
      weakKeeper = keeper
      await keeper.keepOwnScheduler()
    }
    #expect(weakKeeper != nil)  // leaked: the actor holds the scheduler, which holds the actor
    await weakKeeper?.breakCycle()
    #expect(weakKeeper == nil)
  }

  @Test("the doc example: a scheduler made for the chain is held by the subscription and released with it")
  func schedulerMadeForTheChain() async {
    actor Indexer {
      var indexed: [String] = []
      let released: ReleaseGate

      init(released: ReleaseGate) {
        self.released = released
      }

      deinit {
        released.open()
      }

      func watch(_ edits: Signal<String, Never>) -> any Disposable {
        edits.throttle(.milliseconds(300), on: ActorScheduler(self)).subscribeNext(isolatedTo: self) { indexer, text in
          indexer.indexed.append(text)
        }
      }
    }
    weak var weakIndexer: Indexer?
    let released = ReleaseGate()
    let edits = Subject<String, Never>()
    var watching: (any Disposable)?
    do {
      let indexer = Indexer(released: released)
      weakIndexer = indexer
      watching = await indexer.watch(edits)
    }
    #expect(weakIndexer != nil)  // the subscription holds it
    watching?.dispose()
    await released.wait()  // a job under way lets go once it has run; then the indexer is deinitialised
    #expect(weakIndexer == nil)
    #expect(edits.subscriberCount == 0)
  }
}
