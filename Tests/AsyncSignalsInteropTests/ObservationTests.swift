import Dispatch
import Foundation
import Observation
import Synchronization
import Testing

@testable import AsyncSignals
@testable import AsyncSignalsInterop

/// A main-actor model, as SwiftUI models are.
@MainActor
@Observable
final class Person {
  var first: String
  var last: String
  var friend: Person?

  init(first: String = "Ada", last: String = "Lovelace") {
    self.first = first
    self.last = last
  }

  var fullName: String { "\(first) \(last)" }
}

/// An account that outlives the profile that leads to it.
@MainActor
@Observable
final class Account {
  var name: String

  init(name: String) {
    self.name = name
  }
}

/// A profile whose account is a `let`: Observation does not track the first step of `\.account.name`.
@MainActor
@Observable
final class Profile {
  let account: Account

  init(account: Account) {
    self.account = account
  }
}

/// An `Observable` written by hand, with no `ObservationRegistrar` of its own: nothing of it is tracked.
@MainActor
final class HandWrittenHolder: Observable {
  let account: Account

  init(account: Account) {
    self.account = account
  }
}

/// An `@Observable` class that is neither isolated nor `Sendable`, used from the main actor.
@Observable
final class Counter {
  var count = 0
}

/// A `Sendable` observable counter, written by hand: a lock guards the count, and the registrar is told of each
/// access and change, as the `@Observable` macro would. The setter holds the lock across the whole mutation, from the
/// `willSet` that wakes an observation to the store: a nonisolated observation re-reads on another thread as soon as
/// it is woken, and without this it could read the count before the store (the caveat of nonisolated expressions
/// in the Observation article), which would make a test of it depend on timing.
final class LockedCounter: Observable, @unchecked Sendable {
  // guarded by: `lock` (a recursive lock, so that a change handler that reads on the setter's thread does not
  // deadlock); `registrar` is thread-safe.
  private let registrar = ObservationRegistrar()
  private let lock = NSRecursiveLock()
  private var storage = 0

  var count: Int {
    get {
      registrar.access(self, keyPath: \.count)
      return lock.withLock { storage }
    }
    set {
      lock.withLock { registrar.withMutation(of: self, keyPath: \.count) { storage = newValue } }
    }
  }
}

/// The two engines behind `Signal.observing(_:_:)`: `Observations` (Linux, Apple 26) and the
/// `withObservationTracking` loop (Apple before 26), run here against the same expectations.
enum ObservationEngine: String, CaseIterable, CustomTestStringConvertible {
  case observations
  case trackingLoop

  var testDescription: String { rawValue }

  @MainActor
  func signal<Root: AnyObject & Observable, Value: Sendable>(
    _ object: Root, _ value: @escaping @MainActor (Root) -> Value
  ) -> Signal<Value, Never> {
    switch self {
    case .observations: Signal.observing(object, reading: value)
    case .trackingLoop: ObservationTrackingLoop.signal(ObservedExpression(object, value))
    }
  }
}

/// Records what a subscription receives and on which thread; `arrived(count)` waits for that many events.
final class ThreadRecorder<Value: Sendable>: Sendable {
  let values = Locked<[Value]>([])
  let onMainActor = Locked<[Bool]>([])
  let completed = Gate()
  private let events = Locked<[(count: Int, gate: Gate)]>([])

  func record(_ value: Value?) {
    onMainActor.append(CurrentScheduler.isOnMainQueue)  // the main actor runs on the main queue
    if let value { values.append(value) } else { completed.open() }
    let count = onMainActor.value.count
    for waiter in events.value where waiter.count <= count { waiter.gate.open() }
  }

  func arrived(_ count: Int) async {
    let gate = Gate()
    events.append((count, gate))
    if onMainActor.value.count >= count { gate.open() }
    await gate.wait()
  }
}

@MainActor
@Suite("Observation: signals of @Observable state")
struct ObservationTests {
  @Test(
    "sends the current value first, then the value after each change, never the old one",
    arguments: ObservationEngine.allCases)
  func currentThenChanges(engine: ObservationEngine) async {
    let person = Person()
    var values = engine.signal(person) { $0.first }.values.makeAsyncIterator()
    #expect(await values.next() == "Ada")
    person.first = "Grace"  // a read in the willSet would see "Ada"
    #expect(await values.next() == "Grace")
    person.first = "Anita"
    #expect(await values.next() == "Anita")
  }

  @Test("the key-path form observes the property", arguments: [false, true])
  func keyPath(throughAnotherObject: Bool) async {
    let person = Person()
    person.friend = Person(first: "Alan", last: "Turing")
    if throughAnotherObject {
      var values = Signal.observing(person, \.friend?.first).values.makeAsyncIterator()
      #expect(await values.next() == "Alan")
      person.friend?.first = "Kurt"  // a change of the object the path leads to
      #expect(await values.next() == "Kurt")
      person.friend = nil  // a change of the path itself
      #expect(await values.next() == .some(nil))
    } else {
      var values = Signal.observing(person, \.last).values.makeAsyncIterator()
      #expect(await values.next() == "Lovelace")
      person.last = "Byron"
      #expect(await values.next() == "Byron")
    }
  }

  @Test(
    "the changes made in one main-actor job make one value, read after all of them",
    arguments: ObservationEngine.allCases)
  func coalescing(engine: ObservationEngine) async {
    let person = Person()
    var values = engine.signal(person) { $0.fullName }.values.makeAsyncIterator()
    #expect(await values.next() == "Ada Lovelace")
    person.first = "Grace"
    person.last = "Hopper"
    person.first = "Grace"  // set again, to the same value
    #expect(await values.next() == "Grace Hopper")  // not "Grace Lovelace" first
    person.first = "Anita"
    #expect(await values.next() == "Anita Hopper")  // so nothing was queued in between
  }

  @Test("values and the completion are sent on the main actor", arguments: ObservationEngine.allCases)
  func mainActorDelivery(engine: ObservationEngine) async {
    var person: Person? = Person()
    let recorder = ThreadRecorder<String>()
    // Subscribed from a task off the main actor: the values still arrive on it.
    let signal = engine.signal(person!) { $0.first }
    let subscription = await Task.detached {
      signal.subscribeNext({ recorder.record($0) }, completed: { recorder.record(nil) })
    }.value
    await recorder.arrived(1)
    person?.first = "Grace"
    await recorder.arrived(2)
    person = nil
    await recorder.completed.wait()
    #expect(recorder.values.value == ["Ada", "Grace"])
    #expect(recorder.onMainActor.value == [true, true, true])
    subscription.dispose()
  }

  @Test("holds the object weakly and completes when it goes away", arguments: ObservationEngine.allCases)
  func completesWhenTheObjectGoesAway(engine: ObservationEngine) async {
    var person: Person? = Person()
    weak let weakPerson = person
    let signal = engine.signal(person!) { $0.first }
    var values = signal.values.makeAsyncIterator()
    #expect(await values.next() == "Ada")
    person = nil
    #expect(weakPerson == nil)  // neither the signal nor its subscription kept it
    #expect(await values.next() == nil)  // completed
  }

  @Test(
    "a subscription that starts after the object has gone completes without a value",
    arguments: ObservationEngine.allCases)
  func subscribedAfterTheObjectWentAway(engine: ObservationEngine) async {
    var person: Person? = Person()
    let signal = engine.signal(person!) { $0.first }
    person = nil
    #expect(await signal.toArray() == [])
  }

  @Test(
    "an expression reads several properties and objects; it completes when its object goes away",
    arguments: ObservationEngine.allCases)
  func expression(engine: ObservationEngine) async {
    var person: Person? = Person()
    let counter = Counter()  // another object, not isolated and not Sendable, read through the closure
    var values = engine.signal(person!) { "\($0.first) \(counter.count)" }.values.makeAsyncIterator()
    #expect(await values.next() == "Ada 0")
    counter.count = 1
    #expect(await values.next() == "Ada 1")
    person?.first = "Grace"
    #expect(await values.next() == "Grace 1")
    person = nil
    counter.count = 2  // a change after the person has gone finds it gone, too
    #expect(await values.next() == nil)
  }

  @Test(
    "an expression that also reads an object that outlives its own completes when its object goes away",
    arguments: ObservationEngine.allCases)
  func expressionOutlivedByAnotherObject(engine: ObservationEngine) async {
    var person: Person? = Person()
    let counter = Counter()
    let recorder = ThreadRecorder<String>()
    let subscription = engine.signal(person!) { "\($0.first) \(counter.count)" }
      .subscribeNext({ recorder.record($0) }, completed: { recorder.record(nil) })
    await recorder.arrived(1)
    person = nil  // the counter lives on, and does not change
    let completed = await finishes(within: 120) { await recorder.completed.wait() }
    #expect(completed, "the subscription waited for the counter's next change")
    subscription.dispose()
  }

  @Test(
    "a key path whose first step is untracked completes when its root goes away, while the object it leads to lives",
    arguments: ObservationEngine.allCases)
  func untrackedFirstStep(engine: ObservationEngine) async {
    let account = Account(name: "ada")
    var profile: Profile? = Profile(account: account)
    let signal = engine == .observations ? Signal.observing(profile!, \.account.name) : engine.signal(profile!) {
      $0.account.name
    }
    let recorder = ThreadRecorder<String>()
    let subscription = signal.subscribeNext({ recorder.record($0) }, completed: { recorder.record(nil) })
    await recorder.arrived(1)
    account.name = "grace"
    await recorder.arrived(2)
    profile = nil  // the account lives on, and does not change
    let completed = await finishes(within: 120) { await recorder.completed.wait() }
    #expect(completed, "the subscription waited for the account's next change")
    #expect(recorder.values.value == ["ada", "grace"])
    subscription.dispose()
  }

  @Test("a hand-written Observable keeps no registrar the library can see: it is seen to go at the next change")
  func handWrittenObservableRoot() async {
    let account = Account(name: "ada")
    var holder: HandWrittenHolder? = HandWrittenHolder(account: account)
    var values = Signal.observing(holder!, \.account.name).values.makeAsyncIterator()
    #expect(await values.next() == "ada")
    holder = nil
    account.name = "grace"  // the next change of what the value read finds the holder gone
    #expect(await values.next() == nil)
  }

  @Test(
    "an object that is neither isolated nor Sendable can be observed from the main actor",
    arguments: ObservationEngine.allCases)
  func nonSendableObject(engine: ObservationEngine) async {
    var counter: Counter? = Counter()
    var values = engine.signal(counter!) { $0.count }.values.makeAsyncIterator()
    #expect(await values.next() == 0)
    counter?.count += 1
    #expect(await values.next() == 1)
    counter = nil
    #expect(await values.next() == nil)
  }

  @Test(
    "the current value arrives in a later main-actor job, after subscribe returns",
    arguments: ObservationEngine.allCases)
  func currentValueAfterSubscribeReturns(engine: ObservationEngine) async {
    let person = Person()
    let recorder = ThreadRecorder<String>()
    let subscription = engine.signal(person) { $0.first }.subscribeNext { recorder.record($0) }
    #expect(recorder.values.value.isEmpty)  // RACObserve would have sent "Ada" by now
    await recorder.arrived(1)
    #expect(recorder.values.value == ["Ada"])
    subscription.dispose()
  }

  @Test(
    "values are not compared: changes that leave the value as it was send it again",
    arguments: ObservationEngine.allCases)
  func equalValuesAreSent(engine: ObservationEngine) async {
    let person = Person()
    var values = engine.signal(person) { $0.first + $0.last }.values.makeAsyncIterator()
    #expect(await values.next() == "AdaLovelace")
    person.first = "AdaLove"
    person.last = "lace"
    #expect(await values.next() == "AdaLovelace")  // sent again; distinctUntilChanged() would drop it
  }

  @Test("cold: each subscription reads on its own")
  func eachSubscriptionReads() async {
    let person = Person()
    let signal = Signal.observing(person, \.first)
    #expect(await signal.first() == "Ada")
    person.first = "Grace"
    #expect(await signal.first() == "Grace")
  }

  // MARK: The watch that notices an object going away

  @Test("a tracking watch reports a release without a change, and only once it was armed")
  func trackingWatch() {
    let changes = Locked(0)
    let gone = Locked(0)
    do {  // armed, released unfired: the registrars went away
      let watch = TrackingWatch(onChange: { changes.increment() }, onGone: { gone.increment() })
      _ = watch.arm()
    }
    #expect(gone.value == 1 && changes.value == 0)
    do {  // armed and fired: a change
      let watch = TrackingWatch(onChange: { changes.increment() }, onGone: { gone.increment() })
      watch.arm()()
    }
    #expect(gone.value == 1 && changes.value == 1)
    do {  // never armed: the evaluation read nothing tracked
      _ = TrackingWatch(onChange: { changes.increment() }, onGone: { gone.increment() })
    }
    #expect(gone.value == 1 && changes.value == 1)
  }

  // MARK: Any expression, in its own isolation

  @Test("an expression written on the main actor is read there, coalesced per job, and its values are sent there")
  func isolatedExpressionOnMainActor() async {
    let person = Person()
    let counter = Counter()
    let recorder = ThreadRecorder<String>()
    let subscription = Signal.observing { "\(person.first) \(counter.count)" }.subscribeNext { recorder.record($0) }
    await recorder.arrived(1)
    person.first = "Grace"
    counter.count = 3
    await recorder.arrived(2)
    person.first = "Anita"
    await recorder.arrived(3)
    #expect(recorder.values.value == ["Ada 0", "Grace 3", "Anita 3"])
    #expect(recorder.onMainActor.value == [true, true, true])
    subscription.dispose()
  }

  @Test("an expression written in an actor's method is read on that actor, and its values are sent there")
  func isolatedExpressionOnActor() async {
    let store = CounterStore()
    let onStoreQueue = Locked<[Bool]>([])
    let received = Locked<[Int]>([])
    let first = Countdown(1)
    let second = Countdown(2)
    let subscription = await store.counts().subscribeNext { count in
      onStoreQueue.append(store.executor.isCurrent)
      received.append(count)
      first.arrive()
      second.arrive()
    }
    await first.wait()
    await store.increment()  // after the first value: a change
    await second.wait()
    #expect(received.value == [0, 1])
    #expect(onStoreQueue.value == [true, true])
    subscription.dispose()
  }

  @Test("an expression written outside any actor is read, and its values sent, off the main actor")
  func nonisolatedExpression() async {
    let counter = LockedCounter()
    let recorder = ThreadRecorder<Int>()
    let subscription = Self.counts(of: counter).subscribeNext { recorder.record($0) }
    await recorder.arrived(1)
    counter.count = 1
    await recorder.arrived(2)
    #expect(recorder.values.value == [0, 1])
    #expect(recorder.onMainActor.value == [false, false])
    subscription.dispose()
  }

  /// Builds the signal outside any actor, so that its closure is nonisolated.
  nonisolated static func counts(of counter: LockedCounter) -> Signal<Int, Never> {
    Signal.observing { counter.count }
  }

  // MARK: Binding into an @Observable property

  @Test("bind(onMainActorTo:keyPath:) sets an @Observable property, and Observation sees the change")
  func bindingIntoObservable() async {
    let person = Person()
    let names = Subject<String, Never>()
    var values = Signal.observing(person, \.first).values.makeAsyncIterator()
    #expect(await values.next() == "Ada")
    names.bind(onMainActorTo: person, keyPath: \.first)
    names.sendNext("Grace")  // on the main queue with nothing waiting: set at once
    #expect(person.first == "Grace")
    #expect(await values.next() == "Grace")
  }

  @Test("a binding into an @Observable object ends at the next value once the object has gone")
  func bindingEndsWithTheObject() {
    var person: Person? = Person()
    let names = Subject<String, Never>()
    names.bind(onMainActorTo: person!, keyPath: \.first)
    #expect(names.subscriberCount == 1)
    person = nil
    names.sendNext("Grace")
    #expect(names.subscriberCount == 0)
  }
}

/// An executor over a serial queue that can tell whether it is the current one.
final class QueueExecutor: SerialExecutor, @unchecked Sendable {
  // guarded by: immutability — `queue` and `key` are `let`s; `key` is an identity token Dispatch reads thread-safely.
  private let queue = DispatchQueue(label: "observation-tests.store")
  private let key = DispatchSpecificKey<Bool>()

  init() {
    queue.setSpecific(key: key, value: true)
  }

  var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }
}

/// An actor that owns an `@Observable` model (not `Sendable`) and observes it in its own isolation.
actor CounterStore {
  nonisolated let executor = QueueExecutor()
  private let counter = Counter()

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  func counts() -> Signal<Int, Never> {
    Signal.observing { self.counter.count }  // uses `self`: isolated to the store
  }

  func increment() {
    counter.count += 1
  }
}
