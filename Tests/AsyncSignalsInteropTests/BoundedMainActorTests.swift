import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSignals
@testable import AsyncSignalsInterop

/// A main-actor model that a fast feed is bound to.
@MainActor
final class Gauge {
  var value = 0
  var seen: [Int] = []
  var ended = false
}

/// Waits, without blocking a thread of the cooperative pool, until the main queue has run everything queued so far.
private func mainQueueDrained() async {
  await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
}

/// A producer isolated to a queue of its own: once started, its `await send` resumes there, never on the cooperative
/// pool.
private actor QueueProducer {
  let scheduler = QueueScheduler(name: "BoundedMainActorTests.producer")
  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
}

/// Bounded delivery into the main actor. The tests run on the main actor and send without yielding: the main actor
/// is stalled for the whole burst, as it is behind a long layout pass, so every value waits for it.
@MainActor
@Suite("Bounded delivery into the main actor: a UI takes the latest, a store takes a bound")
struct BoundedMainActorTests {
  @Test("subscribeNext(onMainActor:bufferingPolicy: .bufferingNewest(1)): the latest value, the rest counted")
  func newestOnTheMainActor() async {
    let gauge = Gauge()
    let readings = Subject<Int, Never>()
    let subscription = readings.subscribeNext(
      onMainActor: { gauge.seen.append($0) }, bufferingPolicy: .bufferingNewest(1))
    for reading in 1...10_000 { readings.sendNext(reading) }  // the main actor is busy here: all wait for it
    #expect(gauge.seen.isEmpty)  // always asynchronous
    #expect(subscription.droppedCount == 9_999)
    await mainQueueDrained()
    #expect(gauge.seen == [10_000])
    readings.sendNext(10_001)
    await mainQueueDrained()
    #expect(gauge.seen == [10_000, 10_001])
    subscription.dispose()
  }

  @Test("a million sends into the stalled main actor return, and overflowCount is a million less the bound")
  func boundedOnTheStalledMainActor() async {
    let gauge = Gauge()
    let feed = Subject<Int, Never>()
    let limit = 64
    let total = 1_000_000
    let subscription = feed.subscribeNext(
      onMainActor: { gauge.value = $0 }, error: { _ in }, completed: { gauge.ended = true },
      bufferingPolicy: .bounded(limit))
    for value in 1...total { feed.sendNext(value) }  // sendNext never waits, not even for the main actor
    feed.sendCompleted()
    #expect(subscription.overflowCount == total - limit)
    #expect(subscription.droppedCount == 0)
    while !gauge.ended { await mainQueueDrained() }
    #expect(gauge.value == total)  // nothing lost
  }

  @Test("bind(onMainActorTo:keyPath:bufferingPolicy:) sets the latest; at once on the main queue with nothing waiting")
  func boundBindingOnTheMainActor() async {
    let gauge = Gauge()
    let readings = Subject<Int, Never>()
    let binding = readings.bind(onMainActorTo: gauge, keyPath: \.value, bufferingPolicy: .bufferingNewest(1))
    readings.sendNext(1)
    #expect(gauge.value == 1)  // at once: sent on the main queue with nothing waiting
    onPlainThread { for reading in 2...500 { readings.sendNext(reading) } }  // queued for the main actor
    #expect(binding.droppedCount == 498)
    await mainQueueDrained()
    #expect(gauge.value == 500)
    binding.dispose()
  }

  @Test("settle() delivers a bounded main-actor feed to its end: waiting values are work, a paused source resumes")
  func settleDeliversTheBoundedFeed() async throws {
    let scheduler = TestScheduler()
    let gauge = Gauge()
    let read = Atomic<Int>(0)
    let subscription = Signal<Int, Never>.from(1...200)
      .doNext { _ in read.add(1, ordering: .relaxed) }
      .subscribe(on: scheduler)
      .subscribeNext(onMainActor: { gauge.seen.append($0) }, bufferingPolicy: .bounded(8))
    try await scheduler.settle()
    #expect(gauge.seen == Array(1...200))
    #expect(subscription.highWaterMark <= 8)  // the source paused: 200 values, at most 8 waiting
    #expect(subscription.overflowCount == 0)
    #expect(read.load(ordering: .relaxed) == 200)
  }

  @Test("a Signal.async producer's await send suspends while the main actor has the bound waiting, and loses nothing")
  func asyncProducerSuspends() async {
    let gauge = Gauge()
    let producer = QueueProducer()
    let sent = Atomic<Int>(0)
    let limit = 4
    let subscription = Signal<Int, Never>.async(isolatedTo: producer) { _, subscriber in
      for value in 1...100 {
        await subscriber.send(value)
        sent.add(1, ordering: .relaxed)
      }
    }
    .subscribeNext(
      onMainActor: { gauge.seen.append($0) }, error: { _ in }, completed: { gauge.ended = true },
      bufferingPolicy: .bounded(limit))
    // The producer runs: the main actor has seen its first value.
    while gauge.seen.isEmpty { await mainQueueDrained() }
    // The main actor is held here (no await) until four more values wait for it: the fourth closed the bound before
    // its send returned, so the next cannot return until the main actor has taken them. The producer runs on its own
    // queue, not on the cooperative pool, which a test blocked on the main queue may hold meanwhile.
    let taken = gauge.seen.count
    while sent.load(ordering: .relaxed) < taken + limit { sched_yield() }
    #expect(subscription.bound?.demand?.hasRoom == false)
    while !gauge.ended { await mainQueueDrained() }
    #expect(gauge.seen == Array(1...100))
    #expect(subscription.overflowCount == 0)
    #expect(subscription.highWaterMark <= limit)
  }

  @Test("a bound's limit must be positive: the message names the method and the argument (guarantee 9)")
  func limitMustBePositive() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never.subscribeNext(onMainActor: { _ in }, bufferingPolicy: .bounded(0))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("subscribeNext(onMainActor:bufferingPolicy:): bufferingPolicy's limit must be positive"))
  }
}
