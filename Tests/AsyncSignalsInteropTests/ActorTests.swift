import AsyncSignals
import AsyncSignalsInterop
import Dispatch
import Testing

/// Main-actor state that is not `Sendable`: only main-actor code may touch it, which the compiler checks.
@MainActor
final class Screen {
  var lines: [String] = []
}

/// An actor that reads a signal with `for await` inside its own isolation: the iterator never leaves it.
actor Accumulator {
  private(set) var total = 0
  private(set) var seen: [Int] = []

  func consume(_ numbers: Signal<Int, Never>) async {
    for await number in numbers.values {
      total += number  // actor state, mutated without a hop
      seen.append(number)
    }
  }
}

/// An actor whose executor is a `QueueScheduler`: its code and the blocks of that scheduler share one queue.
actor Store {
  nonisolated let scheduler: QueueScheduler
  private(set) var received: [Int] = []

  init(scheduler: QueueScheduler) {
    self.scheduler = scheduler
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    scheduler.asUnownedSerialExecutor()
  }

  func record(_ value: Int) {
    received.append(value)
  }

  /// Subscribes so that each value is handled on the store's queue, inside its isolation, synchronously:
  /// `deliver(on:)` hops to the scheduler, whose queue is this actor's executor, so `assumeIsolated` holds.
  nonisolated func observe(_ values: Signal<Int, Never>) -> any Disposable {
    values.deliver(on: scheduler).subscribeNext { value in
      // On the scheduler's queue, which is this actor's executor: the runtime agrees.
      self.assumeIsolated { store in store.record(value) }
    }
  }
}

@Suite("Actors")
struct ActorTests {
  // MARK: Main actor

  @Test("subscribeNext(onMainActor:): a burst sent on the main queue is one later job, never delivered at once")
  @MainActor
  func mainActorBurstIsOneJob() async {
    let screen = Screen()
    let subject = Subject<Int, Never>()
    subject.subscribeNext(onMainActor: { screen.lines.append("\($0)") })
    subject.sendNext(0)  // on the main queue: queued all the same, and schedules the one job
    #expect(screen.lines.isEmpty)
    await withCheckedContinuation { done in
      DispatchQueue.main.async {
        MainActor.assumeIsolated { screen.lines.append("marker") }
        done.resume()
      }
      for value in 1..<50 { subject.sendNext(value) }  // appended to the job already on its way
    }
    // Were there a job per event, values 1...49 would come after the marker.
    #expect(screen.lines == (0..<50).map { "\($0)" } + ["marker"])
  }

  @Test("subscribeNext(onMainActor:) calls its main-actor closures on the main actor, in order")
  @MainActor
  func mainActorDelivery() async {
    let screen = Screen()
    let worker = QueueScheduler(name: "main-actor-test")
    let signal = Signal<Int, TestError>.create { subscriber in
      worker.schedule {
        for value in 1...3 { subscriber.sendNext(value) }
        subscriber.sendError(TestError(code: 9))
      }
      return nil
    }
    await withCheckedContinuation { done in
      signal.subscribeNext(
        onMainActor: { screen.lines.append("value \($0)") },
        error: {
          screen.lines.append("error \($0.code)")
          done.resume()
        },
        completed: { Issue.record("a failing signal does not complete") })
    }
    #expect(screen.lines == ["value 1", "value 2", "value 3", "error 9"])
  }

  @Test("subscribeNext(onMainActor:completed:) delivers values and completion on the main actor")
  @MainActor
  func mainActorDeliveryCompletion() async {
    let screen = Screen()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    await withCheckedContinuation { done in
      stream.signal.subscribeNext(
        onMainActor: { screen.lines.append("\($0)") },
        completed: {
          screen.lines.append("done")
          done.resume()
        })
      continuation.yield(1)
      continuation.yield(2)
      continuation.finish()
    }
    #expect(screen.lines == ["1", "2", "done"])
  }

  @Test("disposing on the main actor stops main-actor delivery, even of events already scheduled")
  @MainActor
  func mainActorDisposal() async {
    let screen = Screen()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(onMainActor: { screen.lines.append("\($0)") })
    subject.sendNext(1)  // scheduled on the main queue, not yet delivered
    subscription.dispose()
    #expect(subject.subscriberCount == 0)
    // A block enqueued now runs after the scheduled delivery.
    await withCheckedContinuation { done in QueueScheduler.main.schedule { done.resume() } }
    #expect(screen.lines.isEmpty)
  }

  @Test("subscribeNext(onMainActor:) releases its closures when the subscription is disposed")
  @MainActor
  func mainActorRelease() {
    weak var tracked: Tracked?
    let subject = Subject<Int, Never>()
    let subscription: any Disposable
    do {
      let object = Tracked()
      tracked = object
      subscription = subject.subscribeNext(onMainActor: { _ in withExtendedLifetime(object) {} })
    }
    #expect(tracked != nil)
    subscription.dispose()
    #expect(tracked == nil)
  }

  @Test("an actor reads a signal with for await inside its own isolation")
  func actorConsumes() async {
    let accumulator = Accumulator()
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let consuming = Task { await accumulator.consume(probe.signal) }
    await probe.subscribed.wait()
    for value in 1...4 { subject.sendNext(value) }
    subject.sendCompleted()
    await consuming.value
    #expect(await accumulator.total == 10)
    #expect(await accumulator.seen == [1, 2, 3, 4])
  }

  @Test("an actor sharing a QueueScheduler's queue receives deliver(on:) values there, in its isolation, in order")
  @MainActor
  func actorOnSchedulerQueue() async {
    let store = Store(scheduler: QueueScheduler(name: "store"))
    let subject = Subject<Int, Never>()
    let subscription = store.observe(subject)
    // Sent from another queue: deliver(on:) moves each value to the store's queue.
    await withCheckedContinuation { done in
      QueueScheduler(name: "sender").schedule {
        for value in 1...3 { subject.sendNext(value) }
        done.resume()
      }
    }
    // The three deliveries were scheduled on the store's queue before the actor's next job, enqueued on the
    // same queue, after them.
    #expect(await store.received == [1, 2, 3])
    subscription.dispose()
    #expect(subject.subscriberCount == 0)
  }

  @Test("an actor sharing a QueueScheduler's queue: disposing cancels the deliveries not yet made")
  @MainActor
  func actorOnSchedulerQueueDisposal() async {
    let scheduler = QueueScheduler(name: "store")
    let store = Store(scheduler: scheduler)
    let subject = Subject<Int, Never>()
    let subscription = store.observe(subject)
    // Hold the store's queue, so that the delivery of 1 waits behind this block.
    let holding = Gate()
    let release = DispatchSemaphore(value: 0)
    scheduler.schedule {
      holding.open()
      release.wait()
    }
    await holding.wait()
    subject.sendNext(1)  // its delivery is scheduled behind the holding block
    subscription.dispose()
    release.signal()
    #expect(await store.received.isEmpty)
  }
}
