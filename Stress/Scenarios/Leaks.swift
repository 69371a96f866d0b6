import AsyncSignals

/// An object whose lifetime the Leaks scenario watches.
final class Tracked: Sendable {
  init() {}
}

/// Weak references to tracked objects.
final class LeakTracker: Sendable {
  private struct WeakReference {
    let label: String
    weak var object: Tracked?
  }

  private let references = LockedBox<[WeakReference]>([])

  init() {}

  func make(_ label: String) -> Tracked {
    let object = Tracked()
    references.withLock { $0.append(WeakReference(label: label, object: object)) }
    return object
  }

  /// The labels of the tracked objects still alive.
  var alive: [String] { references.value.filter { $0.object != nil }.map(\.label) }
}

/// Guarantee 8 under concurrency: when a subscription ends — by its terminal event or by disposal, racing
/// sends from other threads — every closure it captured is released, even while its producer (a subject, a
/// `create` subscriber somebody keeps) lives on.
///
/// Six pipelines capture one tracked object each, in every closure they take: `create` → `map` → `filter`;
/// subject `zip` `create`; `flattenMap` into `create`s; a subject's `map`; `concat` onto a subject; a
/// `Subscriber` object. Two threads send into every producer, a third completes some producers and disposes
/// some subscriptions at random moments. Afterwards the harness disposes what is left, drops the signals and
/// subscriptions — keeping the subject and the `create` subscribers alive — and every weak reference to a
/// tracked object must be nil.
struct LeaksRace: Scenario {
  static let released = "every closure a subscription captured is released once it has ended (guarantee 8)"

  let name = "Leaks"
  let race = "six pipelines race sends, completion and disposal; then nothing they captured may be alive"
  let invariants = [released]
  let sabotage = "a subscription that keeps its callback after it has ended (stored in a registry)"

  func threads(requested: Int) -> Int { max(3, requested) }

  /// Where the sabotage keeps the callbacks it leaks.
  static let leakedCallbacks = LockedBox<[@Sendable (Int) -> Void]>([])

  func iterate(_ iteration: Iteration) {
    let tracker = LeakTracker()
    let subject = Subject<Int, StressFailure>()
    let producers = LockedBox<[any Subscriber<Int, StressFailure>]>([])
    let subscriptions = immediately {
      Self.makePipelines(tracker: tracker, subject: subject, producers: producers, leak: iteration.isSabotaged)
    }
    let targets = Late<[any Subscriber<Int, StressFailure>]>()
    targets.set(producers.value + [subject])
    iteration.race { thread, random in
      let targets = targets.value
      if thread < 2 {
        for value in 0..<20 {
          for target in targets { target.sendNext(value) }
          if random.oneIn(4) { random.dawdle(2) }
        }
        iteration.count(20 * targets.count)
        return
      }
      for _ in 0..<4 {
        random.dawdle(8)
        if random.oneIn(2) {
          targets[random.below(targets.count)].sendCompleted()
        } else {
          subscriptions[random.below(subscriptions.count)].dispose()
        }
      }
      iteration.count(4)
    }
    for subscription in subscriptions { subscription.dispose() }
    // The signals went out of scope with `makePipelines`; the producers live on, as producers often do.
    withExtendedLifetime((subject, producers)) {
      let alive = tracker.alive
      iteration.check(alive.isEmpty, Self.released, "still alive: \(alive)")
    }
    Self.leakedCallbacks.value = []
  }

  /// Builds the pipelines; the tracked objects exist only inside their closures.
  private static func makePipelines(
    tracker: LeakTracker, subject: Subject<Int, StressFailure>,
    producers: LockedBox<[any Subscriber<Int, StressFailure>]>, leak: Bool
  ) -> [any Disposable] {
    func producer(_ tracked: Tracked) -> Signal<Int, StressFailure> {
      .create { subscriber in
        _ = tracked
        producers.withLock { $0.append(subscriber) }
        return ActionDisposable { _ = tracked }
      }
    }
    var subscriptions: [any Disposable] = []
    do {
      let tracked = tracker.make("create → map → filter")
      let next: @Sendable (Int) -> Void = { _ in _ = tracked }
      if leak { leakedCallbacks.withLock { $0.append(next) } }
      subscriptions.append(
        producer(tracked).map {
          _ = tracked
          return $0
        }.filter {
          _ = tracked
          return $0 >= 0
        }
        .subscribeNext(next, error: { _ in _ = tracked }, completed: { _ = tracked }))
    }
    do {
      let tracked = tracker.make("subject zip create")
      subscriptions.append(
        subject.zip(with: producer(tracked)).subscribeNext({ _ in _ = tracked }, error: { _ in _ = tracked }))
    }
    do {
      let tracked = tracker.make("flattenMap into create")
      subscriptions.append(
        producer(tracked).flattenMap { value in
          Signal<Int, StressFailure>.create { subscriber in
            _ = tracked
            subscriber.sendNext(value)
            subscriber.sendCompleted()
            return ActionDisposable { _ = tracked }
          }
        }.subscribeNext({ _ in _ = tracked }, error: { _ in _ = tracked }))
    }
    do {
      let tracked = tracker.make("subject map")
      subscriptions.append(
        subject.map {
          _ = tracked
          return $0
        }.subscribeNext({ _ in _ = tracked }, error: { _ in _ = tracked }))
    }
    do {
      let tracked = tracker.make("create concat subject")
      subscriptions.append(
        producer(tracked).concat(
          subject.map {
            _ = tracked
            return $0
          }
        )
        .subscribeNext({ _ in _ = tracked }, error: { _ in _ = tracked }))
    }
    do {
      subscriptions.append(subject.subscribe(TrackedSubscriber(tracker.make("Subscriber object"))))
    }
    return subscriptions
  }
}

/// A subscriber object that holds a tracked object.
private final class TrackedSubscriber: Subscriber {
  let tracked: Tracked

  init(_ tracked: Tracked) { self.tracked = tracked }

  func sendNext(_ value: Int) {}
  func sendError(_ error: StressFailure) {}
  func sendCompleted() {}
}
