import AsyncSignals

/// Weak references to disposables: the SubscriberChurn scenario's probe.
final class WeakDisposables: Sendable {
  private struct Reference {
    weak var disposable: (any Disposable)?
  }

  private let references = LockedBox<[Reference]>([])

  init() {}

  func watch(_ disposable: any Disposable) {
    references.withLock { $0.append(Reference(disposable: disposable)) }
  }

  var watched: Int { references.value.count }

  var alive: Int { references.value.filter { $0.disposable != nil }.count }
}

/// Long-lived subscribers used by many short subscriptions: a subject, the subscriber of a `create` body and a
/// `ClosureSubscriber` each serve as the subscriber of thousands of subscriptions that threads make and dispose
/// at once or after a value, racing each other and a thread that sends into the subjects they come from.
///
/// RAC's subscriber forgets a subscription's disposable once it is disposed; a subscriber that kept them all
/// (as this library's did) grows with every short subscription. Afterwards none of the disposed subscriptions may
/// still be alive (weak references to one in 25), and every long-lived subscriber still receives what is sent to
/// it. Over a run of a few seconds this adds up to hundreds of thousands of subscriptions into the same three
/// subscribers; the Leaks test of the package makes a million.
struct SubscriberChurnRace: Scenario {
  static let forgotten = "a long-lived subscriber forgets each short subscription once it is disposed"
  static let alive = "the long-lived subscribers still deliver after the churn"

  let name = "SubscriberChurn"
  let race = "threads subscribe a subject, a create subscriber and a ClosureSubscriber to short subscriptions"
  let invariants = [forgotten, alive, Delivery.serial]
  let sabotage = RetainingSubscriber.description

  func threads(requested: Int) -> Int { max(3, requested) }

  func iterate(_ iteration: Iteration) {
    let perThread = 300
    let subject = Subject<Int, StressFailure>()
    let subjectRecorder = Recorder<Int>()
    let createRecorder = Recorder<Int>()
    let closureRecorder = Recorder<Int>()
    let producer = LockedBox<(any Subscriber<Int, StressFailure>)?>(nil)
    let subscriptions = immediately {
      [
        subjectRecorder.subscribe(to: subject),
        createRecorder.subscribe(
          to: .create { subscriber in
            producer.value = subscriber
            return nil
          }),
      ]
    }
    let closure = ClosureSubscriber<Int, StressFailure>(
      next: { closureRecorder.record(.next($0)) }, error: { closureRecorder.record(.error($0)) },
      completed: { closureRecorder.record(.completed) })
    let plain: [any Subscriber<Int, StressFailure>] = [subject, producer.value!, closure]
    let targets = plain.map { ChurnTarget($0, retaining: iteration.isSabotaged) }
    let feeds = (0..<2).map { _ in Subject<Int, StressFailure>() }
    let watched = WeakDisposables()
    iteration.race { thread, random in
      if thread == 0 {
        for value in 0..<perThread {
          feeds[value % 2].sendNext(value)
          if random.oneIn(8) { random.dawdle(1) }
        }
        iteration.count(perThread)
        return
      }
      for index in 0..<perThread {
        let source: Signal<Int, StressFailure> = random.oneIn(3) ? .never : feeds[random.below(2)]
        let subscription = targets[index % targets.count].subscribe(to: source)
        if index % 25 == 0 { watched.watch(subscription) }
        if random.oneIn(4) { random.dawdle(2) }
        subscription.dispose()
      }
      iteration.count(perThread)
    }
    // The subscribers live on, as long-lived ones do (an optimised build would otherwise free them, and what they
    // kept, right after their last use in the race).
    let left = withExtendedLifetime(targets) { watched.alive }
    iteration.check(left == 0, Self.forgotten, "\(left) of \(watched.watched) disposed subscriptions still alive")
    for target in plain { target.sendNext(-1) }
    for (recorder, who) in [(subjectRecorder, "the subject"), (createRecorder, "the create subscriber"),
      (closureRecorder, "the ClosureSubscriber")]
    {
      recorder.checkDelivery(iteration, who)
      iteration.check(recorder.values.last == -1, Self.alive, "\(who) did not deliver -1 after the churn")
    }
    for subscription in subscriptions { subscription.dispose() }
    closure.dispose()
  }
}

/// One long-lived subscriber of the churn, as something a signal can subscribe (the library's `subscribe(_:)` takes
/// a concrete subscriber type), or its broken twin.
struct ChurnTarget: Sendable {
  let subscribe: @Sendable (Signal<Int, StressFailure>) -> any Disposable

  init(_ subscriber: any Subscriber<Int, StressFailure>, retaining: Bool) {
    if retaining {
      let twin = RetainingSubscriber(subscriber)
      subscribe = { $0.subscribe(twin) }
    } else if let subject = subscriber as? Subject<Int, StressFailure> {
      subscribe = { $0.subscribe(subject) }
    } else if let closure = subscriber as? ClosureSubscriber<Int, StressFailure> {
      subscribe = { $0.subscribe(closure) }
    } else {
      subscribe = { $0.subscribe(ExistentialSubscriber(subscriber)) }
    }
  }

  func subscribe(to source: Signal<Int, StressFailure>) -> any Disposable { subscribe(source) }
}

/// Hands everything, `didSubscribe(with:)` included, to a subscriber known only as an existential (the
/// subscriber of a `create` body), so that it keeps or forgets the subscription itself.
final class ExistentialSubscriber: Subscriber {
  private let base: any Subscriber<Int, StressFailure>

  init(_ base: any Subscriber<Int, StressFailure>) { self.base = base }

  func sendNext(_ value: Int) { base.sendNext(value) }
  func sendError(_ error: StressFailure) { base.sendError(error) }
  func sendCompleted() { base.sendCompleted() }
  func didSubscribe(with disposable: any Disposable) { base.didSubscribe(with: disposable) }
}
