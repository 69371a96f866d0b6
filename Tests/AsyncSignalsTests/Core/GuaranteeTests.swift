import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// One named test per guarantee of DESIGN.md. The thread-related ones are also hammered by Stress.
@MainActor
@Suite("The nine guarantees")
struct GuaranteeTests {
  @Test("1. serial delivery: 8 threads sending into one subscriber never overlap")
  func serialDelivery() {
    let subscriberBox = Locked<(any Subscriber<Int, Never>)?>(nil)
    let signal = Signal<Int, Never>.create { subscriber in
      subscriberBox.value = subscriber
      return nil
    }
    let inCallback = Locked(0)
    let overlaps = Locked(0)
    let received = Locked(0)
    signal.subscribeNext { _ in
      if inCallback.increment() > 1 { overlaps.increment() }
      for _ in 0..<50 { _ = received.value }  // widen the window in which an overlap would show
      received.increment()
      inCallback.withLock { $0 -= 1 }
    }
    let subscriber = subscriberBox.value!
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for value in 0..<1_000 { subscriber.sendNext(thread * 1_000 + value) }
    }
    #expect(overlaps.value == 0)
    #expect(received.value == 8_000)
  }

  @Test(
    "1. serial delivery: a sender on another thread waits until the event in progress has been handled",
    arguments: ["create", "Subject", "ReplaySubject", "ClosureSubscriber"])
  func senderWaits(entryPoint: String) {
    let inFirst = DispatchSemaphore(value: 0)
    let releaseFirst = DispatchSemaphore(value: 0)
    let log = Locked<[String]>([])
    let callback: @Sendable (Int) -> Void = { value in
      log.append("start \(value)")
      if value == 1 {
        inFirst.signal()
        releaseFirst.wait()
      }
      log.append("end \(value)")
    }
    let send: @Sendable (Int) -> Void
    switch entryPoint {
    case "create":
      let subscriberBox = Locked<(any Subscriber<Int, Never>)?>(nil)
      Signal<Int, Never>.create { subscriber in
        subscriberBox.value = subscriber
        return nil
      }.subscribeNext(callback)
      let subscriber = subscriberBox.value!
      send = { subscriber.sendNext($0) }
    case "Subject", "ReplaySubject":
      let subject = entryPoint == "Subject" ? Subject<Int, Never>() : ReplaySubject<Int, Never>()
      subject.subscribeNext(callback)
      send = { subject.sendNext($0) }
    default:
      let subscriber = ClosureSubscriber<Int, Never>(next: callback, error: { _ in }, completed: {})
      send = { subscriber.sendNext($0) }
    }
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { send(1) }
    inFirst.wait()
    DispatchQueue.global().async(group: group) {
      send(2)
      log.append("sender of 2 returned")
    }
    // Give the second sender every chance to overtake; it must not.
    for _ in 0..<1_000 { sched_yield() }
    #expect(log.value == ["start 1"])
    releaseFirst.signal()
    group.wait()
    #expect(log.value == ["start 1", "end 1", "start 2", "end 2", "sender of 2 returned"])
  }

  @Test(
    "1. an operator with several inputs, or a timer, never makes a sender wait: it hands the event to the thread delivering",
    arguments: HandOff.names)
  func operatorHandsOff(operatorName: String) {
    let handOff = HandOff.make(operatorName)
    let inFirst = DispatchSemaphore(value: 0)
    let releaseFirst = DispatchSemaphore(value: 0)
    let log = Locked<[String]>([])
    let threads = Locked<[ObjectIdentifier]>([])
    let armed = Locked(false)
    let subscription = handOff.subscribe { event in
      guard armed.value else { return }
      threads.append(ObjectIdentifier(Thread.current))
      log.append(event)
      if threads.value.count == 1 {
        inFirst.signal()
        releaseFirst.wait()
      }
    }
    handOff.prime()
    armed.value = true
    let group = DispatchGroup()
    let firstThread = Locked<ObjectIdentifier?>(nil)
    DispatchQueue.global().async(group: group) {
      firstThread.value = ObjectIdentifier(Thread.current)
      handOff.first()  // delivered at once, on this thread; its callback then waits
    }
    inFirst.wait()
    let secondReturned = DispatchSemaphore(value: 0)
    DispatchQueue.global().async(group: group) {
      handOff.second()  // handed to the first thread: the sender does not wait
      log.append("second sender returned")
      secondReturned.signal()
    }
    let returned = secondReturned.wait(timeout: .now() + 10) == .success
    #expect(returned, "the second sender waited for the first thread's callback")
    #expect(log.value == [handOff.firstEvent, "second sender returned"])
    releaseFirst.signal()
    if !returned { releaseFirst.signal() }
    group.wait()
    #expect(log.value == [handOff.firstEvent, "second sender returned", handOff.secondEvent])
    #expect(threads.value.count == 2 && threads.value.allSatisfy { $0 == firstThread.value })
    subscription.dispose()
  }

  @Test("2. terminal means terminal: nothing after error, completion or disposal")
  func terminalIsTerminal() {
    let subscriberBox = Locked<(any Subscriber<Int, TestError>)?>(nil)
    let signal = Signal<Int, TestError>.create { subscriber in
      subscriberBox.value = subscriber
      return nil
    }
    let recorder = EventRecorder(signal)
    let subscriber = subscriberBox.value!
    subscriber.sendNext(1)
    recorder.dispose()
    subscriber.sendNext(2)
    subscriber.sendCompleted()
    #expect(recorder.events == [.next(1)])

    let completed = EventRecorder(signal)
    subscriberBox.value!.sendCompleted()
    subscriberBox.value!.sendNext(3)
    subscriberBox.value!.sendError(TestError())
    #expect(completed.events == [.completed])
  }

  /// What a subscriber that disposes its own subscription in its first value's callback receives, through `operate`
  /// applied to a subject, as `sends` drives it: the first value, and nothing after it.
  private func selfDisposing<Output: Sendable>(
    _ operate: (Signal<Int, Never>) -> Signal<Output, Never>, closures: SubscribeClosures,
    sends: (Subject<Int, Never>) -> Void
  ) -> [String] {
    let subject = Subject<Int, Never>()
    let subscription = Locked<(any Disposable)?>(nil)
    let events = Locked<[String]>([])
    let next: @Sendable (Output) -> Void = { value in
      events.append("next \(value)")
      subscription.value?.dispose()
    }
    switch closures {
    case .nextOnly:
      subscription.value = operate(subject).subscribeNext(next)
    case .nextAndCompleted:
      subscription.value = operate(subject).subscribeNext(next, completed: { events.append("completed") })
    case .subscriber:
      subscription.value = operate(subject).subscribe(
        ClosureSubscriber(next: next, error: { _ in }, completed: { events.append("completed") }))
    }
    sends(subject)
    return events.value
  }

  enum SubscribeClosures: CaseIterable, Sendable {
    case nextOnly, nextAndCompleted, subscriber
  }

  @Test(
    "2. terminal means terminal: a subscriber that disposes itself in a value's callback gets nothing more, even from an operator that sends two events for one",
    arguments: SubscribeClosures.allCases)
  func selfDisposalInValue(closures: SubscribeClosures) {
    // take(n)'s n-th value and its completion.
    #expect(selfDisposing({ $0.take(1) }, closures: closures) { $0.sendNext(1) } == ["next 1"])
    // collect's array and its completion, both sent when the source completes.
    let collected = selfDisposing({ $0.collect() }, closures: closures) {
      $0.sendNext(1)
      $0.sendNext(2)
      $0.sendCompleted()
    }
    #expect(collected == ["next [1, 2]"])
    // materialize's completed event as a value, then its completion.
    #expect(selfDisposing({ $0.materialize() }, closures: closures) { $0.sendCompleted() } == ["next completed"])
    // Three values from a synchronous inner signal, sent while it is being subscribed to.
    let flattened = selfDisposing({ $0.flattenMap { _ in Signal.from([1, 2, 3]) } }, closures: closures) {
      $0.sendNext(0)
    }
    #expect(flattened == ["next 1"])
    let concatenated = selfDisposing({ $0.concat(Signal.from([1, 2, 3])) }, closures: closures) {
      $0.sendCompleted()
    }
    #expect(concatenated == ["next 1"])
    // Three values queued on a scheduler, delivered by one job.
    let scheduler = TestScheduler()
    let delivered = selfDisposing({ $0.deliver(on: scheduler) }, closures: closures) {
      $0.sendNext(1)
      $0.sendNext(2)
      $0.sendNext(3)
      $0.sendCompleted()
      scheduler.advance()
    }
    #expect(delivered == ["next 1"])
  }

  @Test("3. disposal is exactly once: 8 threads disposing one subscription run its cleanup once")
  func disposalExactlyOnce() {
    for _ in 0..<100 {
      let cleanups = Locked(0)
      let disposable = Signal<Int, Never>.create { _ in ActionDisposable { cleanups.increment() } }
        .subscribeNext { _ in }
      DispatchQueue.concurrentPerform(iterations: 8) { _ in disposable.dispose() }
      #expect(cleanups.value == 1)
    }
  }

  @Test("4. cold is cold: each subscription runs the body once")
  func coldIsCold() {
    let runs = Locked(0)
    let signal = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(runs.increment())
      return nil
    }
    #expect(runs.value == 0)
    #expect(EventRecorder(signal).values == [1])
    #expect(EventRecorder(signal).values == [2])
  }

  @Test("5. on the main queue, subscribing runs the body at once, with a current scheduler")
  func subscriptionOnMainQueue() {
    let current = Locked<(any Scheduler)?>(nil)
    Signal<Int, Never>.create { _ in
      current.value = Schedulers.current
      return nil
    }.subscribeNext { _ in }
    #expect(current.value === QueueScheduler.main)
  }

  @Test("5. inside a scheduler's block, subscribing runs the body at once on that scheduler")
  func subscriptionInsideScheduler() {
    let scheduler = TestScheduler()
    let log = Locked<[String]>([])
    scheduler.schedule {
      Signal<Int, Never>.create { _ in
        log.append(Schedulers.current === scheduler ? "body on scheduler" : "body elsewhere")
        return nil
      }.subscribeNext { _ in }
      log.append("subscribed")
    }
    scheduler.advance()
    #expect(log.value == ["body on scheduler", "subscribed"])
  }

  @Test("5. on a plain thread with no current scheduler, subscribing schedules the body on a background scheduler")
  nonisolated func subscriptionInBackground() {
    // The body waits for `subscribeCompleted` to have returned. Were the body run synchronously inside it, the
    // wait could only time out.
    let subscribed = DispatchSemaphore(value: 0)
    let completed = DispatchSemaphore(value: 0)
    let waitedForSubscribe = Locked<Bool?>(nil)
    let currentInBody = Locked<(any Scheduler)?>(nil)
    let currentOutside = Locked<(any Scheduler)?>(QueueScheduler.main)
    onPlainThread {
      currentOutside.value = Schedulers.current
      let signal = Signal<Int, Never>.create { subscriber in
        waitedForSubscribe.value = subscribed.wait(timeout: .now() + 10) == .success
        currentInBody.value = Schedulers.current
        subscriber.sendCompleted()
        return nil
      }
      signal.subscribeCompleted { completed.signal() }
      subscribed.signal()
    }
    #expect(completed.wait(timeout: .now() + 10) == .success)
    #expect(currentOutside.value == nil)
    #expect(waitedForSubscribe.value == true)
    #expect(currentInBody.value === QueueScheduler.background)
  }

  @Test("5. in a task with no current scheduler, subscribing runs the body at once, the subscription scheduler current")
  nonisolated func subscriptionInTask() async {
    #expect(Schedulers.current == nil)
    let log = Locked<[String]>([])
    let currentInBody = Locked<(any Scheduler)?>(nil)
    Signal<Int, Never>.create { subscriber in
      currentInBody.value = Schedulers.current
      subscriber.sendNext(1)
      subscriber.sendCompleted()
      return nil
    }.subscribeNext({ log.append("next \($0)") }, completed: { log.append("completed") })
    log.append("subscribed")
    #expect(log.value == ["next 1", "completed", "subscribed"])
    #expect(currentInBody.value === SubscriptionScheduler.shared)
    #expect(Schedulers.current == nil)  // only the body sees a current scheduler
  }

  @Test(
    "5. in a task, every built-in source's subscriber sees the subscription scheduler current, return's included",
    arguments: ["return", "empty", "error", "from", "create", "flattenMap of return", "flattenMap of create"])
  nonisolated func currentInTaskForEverySource(source: String) async {
    #expect(Schedulers.current == nil)
    let seen = Locked<[String]>([])
    @Sendable func record(_ label: String) {
      seen.append("\(label) \(Schedulers.current === SubscriptionScheduler.shared ? "subscription" : "other")")
    }
    let signal: Signal<Int, TestError> =
      switch source {
      case "return": .return(1)
      case "empty": .empty
      case "error": .error(TestError())
      case "from": .from([1])
      case "create": .create { subscriber in
          subscriber.sendNext(1)
          subscriber.sendCompleted()
          return nil
        }
      case "flattenMap of return": .from([1]).flattenMap { .return($0) }
      default: .from([1]).flattenMap { value in .create { subscriber in
          subscriber.sendNext(value)
          subscriber.sendCompleted()
          return nil
        } }
      }
    signal.subscribeNext({ _ in record("next") }, error: { _ in record("error") }, completed: { record("completed") })
    #expect(!seen.value.isEmpty)  // delivered before subscribeNext returned
    #expect(seen.value.allSatisfy { $0.hasSuffix("subscription") }, "\(seen.value)")
    #expect(Schedulers.current == nil)
  }

  @Test("5. in a task, return's value spliced into flattenMap arrives as its subscription would send it")
  nonisolated func currentInTaskForSplicedReturn() async {
    let subject = Subject<Int, Never>()
    let seen = Locked<[Bool]>([])
    let subscription = subject.flattenMap { .return($0) }.subscribeNext { _ in
      seen.append(Schedulers.current === SubscriptionScheduler.shared)
    }
    subject.sendNext(1)  // from the task, where no scheduler is current: the inner's subscription would run at once
    #expect(seen.value == [true])
    #expect(Schedulers.current == nil)
    subscription.dispose()
  }

  @Test("5. in an actor's isolation, subscribing runs the body at once")
  nonisolated func subscriptionInActor() async {
    actor Reader {
      func read(_ signal: Signal<Int, Never>) -> [Int] {
        let values = Locked<[Int]>([])
        signal.subscribeNext { values.append($0) }
        return values.value  // delivered before `subscribeNext` returned
      }
    }
    let values = await Reader().read(
      .create { subscriber in
        for value in 1...3 { subscriber.sendNext(value) }
        subscriber.sendCompleted()
        return nil
      })
    #expect(values == [1, 2, 3])
  }

  @Test("5. dated work scheduled from a body run at once in a task goes to the background scheduler")
  nonisolated func datedWorkFromTaskBody() async {
    let ranOn = await withCheckedContinuation { (continuation: CheckedContinuation<(any Scheduler)?, Never>) in
      Signal<Int, Never>.create { _ in
        Schedulers.current?.schedule(afterDelay: .zero) { continuation.resume(returning: Schedulers.current) }
      }.subscribeNext { _ in }
    }
    #expect(ranOn === QueueScheduler.background)
  }

  @Test("5. a timer operator subscribed in a task keeps its own queue, and a blocking wait on an actor ends")
  nonisolated func timerOperatorFromActor() async {
    actor Waiter {
      func waitForDelayedValue() -> (BlockingResult<Int?, Never>, (any Scheduler)?) {
        let deliveredOn = Locked<(any Scheduler)?>(nil)
        let result = Signal<Int, Never>.return(1)
          .delay(.milliseconds(1))
          .doNext { _ in deliveredOn.value = Schedulers.current }
          .first(timeout: .seconds(30))  // waits on the actor's thread: the delay's timer must not need it
        return (result, deliveredOn.value)
      }
    }
    let (result, deliveredOn) = await Waiter().waitForDelayedValue()
    #expect(result == .success(1))
    #expect(deliveredOn is QueueScheduler)
    #expect(deliveredOn !== SubscriptionScheduler.shared)
    #expect(deliveredOn !== QueueScheduler.main)
  }

  @Test("6. re-entrancy: take(3) on a signal whose handler sends back into it yields 0, 1, 2 and completes")
  func reentrantTake() {
    let subscriberBox = Locked<(any Subscriber<Int, Never>)?>(nil)
    let source = Signal<Int, Never>.create { subscriber in
      subscriberBox.value = subscriber
      subscriber.sendNext(0)
      return nil
    }
    let takeThree = source.bind {
      var taken = 0
      return { value, stop in
        taken += 1
        stop = taken == 3
        return .return(value)
      }
    }
    let log = Locked<[String]>([])
    takeThree.subscribeNext({ value in
      log.append("\(value)")
      subscriberBox.value?.sendNext(value + 1)
    }, completed: { log.append("completed") })
    #expect(log.value == ["0", "1", "2", "completed"])
  }

  @Test("6. re-entrancy: a handler that disposes its own subscription stops delivery at once")
  func reentrantDispose() {
    let disposable = Locked<(any Disposable)?>(nil)
    let received = Locked<[Int]>([])
    let signal = Signal<Int, Never>.create { subscriber in
      for value in 0..<5 { subscriber.sendNext(value) }
      return nil
    }
    disposable.value = signal.subscribeNext { value in
      received.append(value)
      if value == 1 { disposable.value?.dispose() }
    }
    // The first two values arrive while `subscribeNext` is still running; the disposable is then unknown.
    #expect(received.value == [0, 1, 2, 3, 4])
    let subject = Subject<Int, Never>()
    let fromSubject = Locked<[Int]>([])
    disposable.value = subject.subscribeNext { value in
      fromSubject.append(value)
      disposable.value?.dispose()
    }
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(fromSubject.value == [1])
  }

  @Test("7. no unbounded stack growth: 100 000 recursive reschedules run in constant depth")
  func constantStack() {
    let count = Locked(0)
    ImmediateScheduler.shared.scheduleRecursive { reschedule in
      if count.increment() < 100_000 { reschedule() }
    }
    #expect(count.value == 100_000)
  }

  @Test("8. nothing leaks: closures are released after completion")
  func releasedAfterCompletion() {
    let tracker = LifetimeTracker()
    do {
      let tracked = tracker.make()
      Signal<Int, Never>.return(1).map { _ in tracked }.subscribeNext { _ in _ = tracked }
    }
    #expect(tracker.liveCount == 0)
  }

  @Test("8. nothing leaks: closures are released after disposal, even while the producer lives on")
  func releasedAfterDisposal() {
    let tracker = LifetimeTracker()
    let subject = Subject<Int, Never>()
    let keptSubscriber = Locked<(any Subscriber<Int, Never>)?>(nil)
    let producer = Signal<Int, Never>.create { subscriber in
      keptSubscriber.value = subscriber  // a producer that never lets go
      return nil
    }
    let disposables: [any Disposable] = {
      let tracked = tracker.make()
      return [
        subject.map { _ in tracked }.subscribeNext { _ in _ = tracked },
        producer.filter { _ in _ = tracked; return true }.subscribeNext { _ in _ = tracked },
        subject.zip(with: producer).subscribeNext { _ in _ = tracked },
      ]
    }()
    #expect(tracker.liveCount == 1)
    for disposable in disposables { disposable.dispose() }
    #expect(tracker.liveCount == 0)
    #expect(subject.subscriberCount == 0)
  }

  @Test("9. bad input gets a clear answer: a failure travels as the signal's typed failure")
  func typedFailure() {
    let recorder = EventRecorder(Signal<Int, TestError>.error(TestError(code: 42)).map { $0 + 1 })
    #expect(recorder.errors == [TestError(code: 42)])
  }

  @Test("9. bad input gets a clear answer: a programming error stops with the method and the argument")
  nonisolated func preconditionMessage() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = QueueScheduler(name: "bad").schedule(after: Date(), repeatingEvery: .zero, leeway: .zero) {}
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("QueueScheduler.schedule(after:repeatingEvery:leeway:_:): interval must be positive"))
  }
}

/// One operator with several inputs (or a timer), set up so that `first` (on one thread) delivers `firstEvent` and
/// `second` (on another, while the first callback is still running) makes it decide `secondEvent`.
struct HandOff: Sendable {
  static let names = [
    "merge", "combineLatest", "zip", "flatten", "flatten(maxConcurrent:)", "flattenMap (bind)", "switchToLatest",
    "take(until:)", "take(untilReplacement:)", "sample", "throttle", "buffer(time:on:)", "timeout",
  ]

  let subscribe: @Sendable (@escaping @Sendable (String) -> Void) -> any Disposable
  var prime: @Sendable () -> Void = {}
  let first: @Sendable () -> Void
  let firstEvent: String
  let second: @Sendable () -> Void
  let secondEvent: String

  /// Subscribes `record` to `signal`, each event as a string.
  static func recording<Value, Failure>(
    _ signal: Signal<Value, Failure>
  ) -> @Sendable (@escaping @Sendable (String) -> Void) -> any Disposable {
    { record in
      signal.subscribeNext({ record("\($0)") }, error: { _ in record("error") }, completed: { record("completed") })
    }
  }

  static func make(_ name: String) -> HandOff {
    let a = Subject<Int, Never>()
    let b = Subject<Int, Never>()
    let scheduler = TestScheduler()
    switch name {
    case "merge":
      return HandOff(
        subscribe: recording(Signal.merge([a, b])), first: { a.sendNext(1) }, firstEvent: "1",
        second: { b.sendNext(2) }, secondEvent: "2")
    case "combineLatest":
      return HandOff(
        subscribe: recording(a.combineLatest(with: b).map { $0 + $1 }), prime: { b.sendNext(100) },
        first: { a.sendNext(1) }, firstEvent: "101", second: { b.sendNext(200) }, secondEvent: "201")
    case "zip":
      return HandOff(
        subscribe: recording(a.zip(with: b).map { $0 * 100 + $1 }), prime: { a.sendNext(1) },
        first: { b.sendNext(10) }, firstEvent: "110", second: { a.sendCompleted() }, secondEvent: "completed")
    case "flatten":
      let outer = Subject<Signal<Int, Never>, Never>()
      return HandOff(
        subscribe: recording(outer.flatten()),
        prime: {
          outer.sendNext(a)
          outer.sendNext(b)
        }, first: { a.sendNext(1) }, firstEvent: "1", second: { b.sendNext(2) }, secondEvent: "2")
    case "flatten(maxConcurrent:)":
      let outer = Subject<Signal<Int, Never>, Never>()
      return HandOff(
        subscribe: recording(outer.flatten(maxConcurrent: 2)),
        prime: {
          outer.sendNext(a)
          outer.sendNext(b)
        }, first: { a.sendNext(1) }, firstEvent: "1", second: { b.sendNext(2) }, secondEvent: "2")
    case "take(untilReplacement:)":
      return HandOff(
        subscribe: recording(a.take(untilReplacement: b)), first: { a.sendNext(1) }, firstEvent: "1",
        second: { b.sendNext(2) }, secondEvent: "2")
    case "sample":
      return HandOff(
        subscribe: recording(a.sample(b)), prime: { a.sendNext(1) }, first: { b.sendNext(0) }, firstEvent: "1",
        second: { a.sendCompleted() }, secondEvent: "completed")
    case "flattenMap (bind)":
      let c = Subject<Int, Never>()
      return HandOff(
        subscribe: recording(a.flattenMap { $0 == 0 ? b : c.startWith($0) }), prime: { a.sendNext(0) },
        first: { a.sendNext(1) }, firstEvent: "1", second: { b.sendNext(2) }, secondEvent: "2")
    case "switchToLatest":
      let outer = Subject<Signal<Int, Never>, Never>()
      return HandOff(
        subscribe: recording(outer.switchToLatest()), prime: { outer.sendNext(a) }, first: { a.sendNext(1) },
        firstEvent: "1",
        second: {
          outer.sendNext(b)
          b.sendNext(2)
        }, secondEvent: "2")
    case "take(until:)":
      return HandOff(
        subscribe: recording(a.take(until: b)), first: { a.sendNext(1) }, firstEvent: "1", second: { b.sendNext(0) },
        secondEvent: "completed")
    case "throttle":
      return HandOff(
        subscribe: recording(a.throttle(.seconds(1), on: scheduler)), prime: { a.sendNext(1) },
        first: { scheduler.advance(by: .seconds(1)) }, firstEvent: "1", second: { a.sendCompleted() },
        secondEvent: "completed")
    case "buffer(time:on:)":
      return HandOff(
        subscribe: recording(a.buffer(time: .seconds(1), on: scheduler)), prime: { a.sendNext(1) },
        first: { scheduler.advance(by: .seconds(1)) }, firstEvent: "[1]", second: { a.sendCompleted() },
        secondEvent: "completed")
    default:
      precondition(name == "timeout", "HandOff.make: unknown operator \(name)")
      return HandOff(
        subscribe: recording(a.timeout(.seconds(1), on: scheduler)), first: { a.sendNext(1) }, firstEvent: "1",
        second: { scheduler.advance(by: .seconds(1)) }, secondEvent: "error")
    }
  }
}
