import AsyncSignals
import AsyncSignalsInterop

// The actor shapes: N lines from `Signal.from`, parsed, delivered into an actor whose callback is slower than the
// source, so that what waits for the actor is what the delivery's bound lets through.
//
// - `actor`: into a plain actor with `subscribeNext(isolatedTo:bufferingPolicy: .bounded(64))`: the source pauses
//   while 64 records wait.
// - `mainActor`: into the main actor with `subscribeNext(onMainActor:bufferingPolicy: .bufferingNewest(1))`: the
//   source runs unpaused and the main actor sees the latest record at each turn; the rest are dropped.
//
// Built with `-D FLOWMEMORY_23494CC` (or `FLOWMEMORY_CF64AE7`), both use the unbounded forms those commits have
// (`subscribeNext(isolatedTo:_:error:completed:)`, `subscribeNext(onMainActor:error:completed:)`), which queue every
// record the actor has not taken yet: the contrast, which grows with N.

/// What an actor shape's callbacks read.
struct Delivery: Sendable {
  var total = 0
  var count = 0
  /// The most `heapInUse()` found, looking once per 1,000 lines the source sent.
  var heapPeak = 0
  var nextLook = 0

  /// The callback's work on `record`: a checksum of `lineRounds` rounds, about 4 µs, slower than the source.
  mutating func take(_ record: Record) {
    total &+= checksum(record.line, rounds: lineRounds) &+ record.request
    count += 1
    // By the line's index, not by the callbacks run: the main actor's callback sees only the lines not dropped,
    // and should look at the heap as often as one that sees every line.
    if record.request >= nextLook {
      heapPeak = max(heapPeak, heapInUse())
      nextLook = record.request + 1000
    }
  }
}

/// The slow actor the `actor` shape delivers into.
actor Sink {
  var delivery = Delivery()
}

/// The main-actor state the `mainActor` shape delivers into, as a screen's model would hold it.
@MainActor
final class Screen {
  var delivery = Delivery()
}

/// What the bound did: the subscription's counts. nil in a build whose delivery has no bound.
struct BoundCounts: Sendable {
  let overflow: Int
  let dropped: Int
  let highWaterMark: Int
}

/// The lines, read off the caller's thread as Getting Started asks, then parsed: the same source as `straight`'s.
func records(_ lines: Int) -> Signal<Record, Never> {
  Signal<String, Never>.from(Lines(count: lines))
    .subscribe(on: QueueScheduler(name: "reader"))
    .map { Record(parsing: $0) }
}

/// Runs the `actor` shape to its end: the records into a `Sink`.
func intoActor(lines: Int) async -> (Delivery, BoundCounts?) {
  let sink = Sink()
  #if FLOWMEMORY_23494CC || FLOWMEMORY_CF64AE7
  let delivery = await withCheckedContinuation { (done: CheckedContinuation<Delivery, Never>) in
    records(lines).subscribeNext(
      isolatedTo: sink, { sink, record in sink.delivery.take(record) }, error: { _, _ in },
      completed: { sink in done.resume(returning: sink.delivery) })
  }
  return (delivery, nil)
  #else
  var subscription: IsolatedSubscription?
  let delivery = await withCheckedContinuation { (done: CheckedContinuation<Delivery, Never>) in
    subscription = records(lines).subscribeNext(
      isolatedTo: sink, bufferingPolicy: .bounded(64), { sink, record in sink.delivery.take(record) },
      error: { _, _ in }, completed: { sink in done.resume(returning: sink.delivery) })
  }
  return (delivery, subscription.map(counts))
  #endif
}

/// Runs the `mainActor` shape to its end: the records into a `Screen` on the main actor, which the program's async
/// main leaves free while it awaits (the main queue is the main actor's executor).
func intoMainActor(lines: Int) async -> (Delivery, BoundCounts?) {
  let screen = Screen()
  #if FLOWMEMORY_23494CC || FLOWMEMORY_CF64AE7
  let delivery = await withCheckedContinuation { (done: CheckedContinuation<Delivery, Never>) in
    records(lines).subscribeNext(
      onMainActor: { screen.delivery.take($0) }, error: { _ in },
      completed: { done.resume(returning: screen.delivery) })
  }
  return (delivery, nil)
  #else
  var subscription: IsolatedSubscription?
  let delivery = await withCheckedContinuation { (done: CheckedContinuation<Delivery, Never>) in
    subscription = records(lines).subscribeNext(
      onMainActor: { screen.delivery.take($0) }, error: { _ in },
      completed: { done.resume(returning: screen.delivery) }, bufferingPolicy: .bufferingNewest(1))
  }
  return (delivery, subscription.map(counts))
  #endif
}

#if !(FLOWMEMORY_23494CC || FLOWMEMORY_CF64AE7)
func counts(_ subscription: IsolatedSubscription) -> BoundCounts {
  BoundCounts(
    overflow: subscription.overflowCount, dropped: subscription.droppedCount,
    highWaterMark: subscription.highWaterMark)
}
#endif
