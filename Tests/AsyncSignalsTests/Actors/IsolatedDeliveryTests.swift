import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// A default actor that records what its isolated callbacks saw.
actor Recorder {
  private(set) var log: [String] = []
  private var waiters: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []
  /// Opened when the recorder is deinitialised, for a test that awaits its release.
  private let released: ReleaseGate?

  init(released: ReleaseGate? = nil) {
    self.released = released
  }

  deinit {
    released?.open()
  }

  func append(_ entry: String) {
    log.append(entry)
    let (ready, waiting) = (waiters.filter { $0.count <= log.count }, waiters.filter { $0.count > log.count })
    waiters = waiting
    for waiter in ready { waiter.continuation.resume(returning: log) }
  }

  /// Waits until the log has at least `count` entries, and returns it.
  func log(count: Int) async -> [String] {
    if log.count >= count { return log }
    return await withCheckedContinuation { waiters.append((count, $0)) }
  }
}

/// An actor whose executor is a `QueueScheduler`: the library can tell when code already runs on it.
actor QueueActor {
  nonisolated let scheduler: QueueScheduler
  var log: [String] = []

  init(name: String = "QueueActor") {
    scheduler = QueueScheduler(name: name)
  }

  init(scheduler: QueueScheduler) {
    self.scheduler = scheduler
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    scheduler.asUnownedSerialExecutor()
  }
}

/// An actor whose bindings end when it goes away: it provides a lifetime. Its executor is a `QueueScheduler`, so
/// that a test can wait for its queue.
actor LifetimeActor: LifetimeProviding {
  nonisolated let lifetime = Lifetime()
  nonisolated let scheduler = QueueScheduler(name: "LifetimeActor")
  var log: [String] = []

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    scheduler.asUnownedSerialExecutor()
  }
}

/// Blocks `scheduler`'s queue until the returned gate is opened.
func closeGate(on scheduler: QueueScheduler) -> DispatchSemaphore {
  let gate = DispatchSemaphore(value: 0)
  let closed = DispatchSemaphore(value: 0)
  scheduler.queue.async {
    closed.signal()
    gate.wait()
  }
  closed.wait()
  return gate
}

/// Waits, without blocking a thread of the cooperative pool, until `scheduler` has run everything queued so far.
func drained(_ scheduler: QueueScheduler) async {
  await withCheckedContinuation { continuation in scheduler.queue.async { continuation.resume() } }
}

@Suite("Isolated delivery into an actor")
struct IsolatedDeliveryTests {
  @Test("events sent from another thread arrive on the actor in order, the terminal event last")
  func orderFromAnotherThread() async {
    let recorder = Recorder()
    let subject = Subject<Int, TestError>()
    subject.subscribeNext(
      isolatedTo: recorder, { recorder, value in recorder.append("\(value)") },
      error: { recorder, error in recorder.append("error") },
      completed: { recorder in recorder.append("completed") })
    onPlainThread {
      for value in 0..<500 { subject.sendNext(value) }
      subject.sendError(TestError())
      subject.sendNext(999)  // after the terminal event: never delivered
    }
    let log = await recorder.log(count: 501)
    #expect(log == (0..<500).map { "\($0)" } + ["error"])
  }

  @Test("a burst sent while the actor is busy is delivered by one job, ahead of a block queued mid-burst")
  func oneJobPerBurst() async {
    let actor = QueueActor()
    let subject = Subject<Int, Never>()
    subject.subscribeNext(isolatedTo: actor) { actor, value in actor.log.append("\(value)") }
    let gate = closeGate(on: actor.scheduler)
    subject.sendNext(0)  // schedules the one job, behind the gate
    actor.scheduler.queue.async { actor.assumeIsolated { $0.log.append("marker") } }
    for value in 1..<100 { subject.sendNext(value) }  // queued for that same job
    gate.signal()
    await drained(actor.scheduler)
    // Were there a job per event, values 1...99 would come after the marker.
    #expect(await actor.log == (0..<100).map { "\($0)" } + ["marker"])
  }

  @Test("a send on the actor's QueueScheduler executor delivers before sendNext returns")
  func atOnceOnQueueExecutor() async {
    let actor = QueueActor()
    let subject = Subject<Int, Never>()
    subject.subscribeNext(isolatedTo: actor) { actor, value in actor.log.append("got \(value)") }
    actor.scheduler.queue.async {
      subject.sendNext(1)
      actor.assumeIsolated { $0.log.append("sendNext returned") }
    }
    await drained(actor.scheduler)
    #expect(await actor.log == ["got 1", "sendNext returned"])
  }

  @Test("a send on the executor never overtakes an event already queued")
  func atOnceNeverOvertakes() async {
    let actor = QueueActor()
    let subject = Subject<Int, Never>()
    subject.subscribeNext(isolatedTo: actor) { actor, value in actor.log.append("got \(value)") }
    let sentFirst = DispatchSemaphore(value: 0)
    actor.scheduler.queue.async {
      sentFirst.wait()  // 1 is queued by now, its job waiting behind this block
      subject.sendNext(2)
      actor.assumeIsolated { $0.log.append("sendNext(2) returned") }
    }
    onPlainThread { subject.sendNext(1) }
    sentFirst.signal()
    await drained(actor.scheduler)
    #expect(await actor.log == ["sendNext(2) returned", "got 1", "got 2"])
  }

  @Test("a value sent from inside a callback is delivered after that callback returns, not nested in it")
  func reentrantSendIsQueued() async {
    let actor = QueueActor()
    let subject = Subject<Int, Never>()
    subject.subscribeNext(isolatedTo: actor) { actor, value in
      actor.log.append("begin \(value)")
      if value == 1 { subject.sendNext(2) }
      actor.log.append("end \(value)")
    }
    actor.scheduler.queue.async { subject.sendNext(1) }
    await drained(actor.scheduler)
    #expect(await actor.log == ["begin 1", "end 1", "begin 2", "end 2"])
  }

  @Test("disposing on the actor from a callback: nothing more is delivered, even what was already queued")
  func disposeOnActorStopsAtOnce() async {
    let actor = QueueActor()
    let subject = Subject<Int, Never>()
    let subscription = Locked<(any Disposable)?>(nil)
    let gate = closeGate(on: actor.scheduler)
    subscription.value = subject.subscribeNext(isolatedTo: actor) { actor, value in
      actor.log.append("\(value)")
      subscription.value?.dispose()
    }
    for value in 1...3 { subject.sendNext(value) }  // one burst, queued behind the gate
    gate.signal()
    await drained(actor.scheduler)
    #expect(await actor.log == ["1"])
    #expect(subscription.value?.isDisposed == true)
  }

  @Test("disposing before the job runs: nothing is delivered")
  func disposeBeforeJob() async {
    let actor = QueueActor()
    let subject = Subject<Int, Never>()
    let gate = closeGate(on: actor.scheduler)
    let subscription = subject.subscribeNext(isolatedTo: actor) { actor, value in actor.log.append("\(value)") }
    subject.sendNext(1)
    subscription.dispose()
    gate.signal()
    await drained(actor.scheduler)
    #expect(await actor.log == [])
  }

  @Test("the main actor on the main queue: delivered at once, with the callback isolated to it")
  @MainActor
  func mainActorAtOnce() {
    let subject = Subject<Int, Never>()
    let log = Locked<[String]>([])
    subject.subscribeNext(isolatedTo: MainActor.shared) { _, value in
      MainActor.assertIsolated()
      log.append("got \(value)")
    }
    subject.sendNext(1)
    log.append("returned")
    #expect(log.value == ["got 1", "returned"])
  }

  @Test("the main actor counts as the main queue only while the runtime's main executor is Dispatch's main queue")
  func mainActorExecutorIsChecked() {
    #expect(ActorExecutor.isMainQueue(MainActor.sharedUnownedExecutor))
    #expect(ActorExecutor.mainActorRunsOnMainQueue)
    guard case .mainQueue = ActorExecutor(of: MainActor.shared) else {
      Issue.record("the main actor, on the main queue, is not recognised")
      return
    }
    // Any other executor as the main executor (only the runtime's experimental SPI can install one): not the
    // main queue, so the main actor would be treated as any actor, whose jobs hop onto it as tasks.
    let other = QueueScheduler(name: "not main")
    #expect(!ActorExecutor.isMainQueue(other.asUnownedSerialExecutor()))
    // Nor does a type of the runtime's type's name from another module: the runtime's own type is recognised.
    let namesake = DispatchMainExecutor()
    #expect(!ActorExecutor.isMainQueue(namesake.asUnownedSerialExecutor()))
    withExtendedLifetime((other, namesake)) {}
  }

  @Test("a subscription keeps its actor alive until it ends, then releases it")
  func subscriptionKeepsActorAlive() async {
    weak var weakRecorder: Recorder?
    let released = ReleaseGate()
    let subject = Subject<Int, Never>()
    var subscription: (any Disposable)?
    do {
      let recorder = Recorder(released: released)
      weakRecorder = recorder
      subscription = subject.subscribeNext(isolatedTo: recorder) { recorder, value in recorder.append("\(value)") }
    }
    #expect(weakRecorder != nil)  // only the subscription holds it now
    subject.sendNext(1)
    #expect(await weakRecorder?.log(count: 1) == ["1"])
    subscription?.dispose()
    // A delivery job already under way holds the actor until it has run; then the recorder is deinitialised.
    await released.wait()
    #expect(weakRecorder == nil)
    withExtendedLifetime(subscription) {}
  }

  @Test("a completed subscription releases its actor though its disposable is kept")
  func completionReleasesActor() async {
    weak var weakRecorder: Recorder?
    let released = ReleaseGate()
    let subject = Subject<Int, Never>()
    let finished = Locked<CheckedContinuation<Void, Never>?>(nil)
    var subscription: (any Disposable)?
    await withCheckedContinuation { continuation in
      finished.value = continuation
      let recorder = Recorder(released: released)
      weakRecorder = recorder
      subscription = subject.subscribeNext(
        isolatedTo: recorder, { _, _ in }, completed: { _ in finished.value?.resume() })
      subject.sendCompleted()
    }
    // The job that delivered the completion may still hold the actor for an instant after the callback; then the
    // recorder is deinitialised, though the subscription's disposable is kept.
    await released.wait()
    #expect(weakRecorder == nil)
    withExtendedLifetime(subscription) {}
  }

  @Test("a binding to an actor with a lifetime ends when the actor goes away, releasing the source and the setter")
  func bindingEndsWithLifetimeProvidingActor() async {
    weak var weakActor: LifetimeActor?
    let subject = Subject<Int, Never>()
    let tracker = LifetimeTracker()
    let binding: any Disposable
    do {
      let actor = LifetimeActor()
      weakActor = actor
      let captured = tracker.make()
      binding = subject.bind(isolatedTo: actor) { actor, value in
        withExtendedLifetime(captured) {}
        actor.log.append("\(value)")
      }
      subject.sendNext(1)
      await drained(actor.scheduler)
      #expect(await actor.log == ["1"])
    }
    #expect(weakActor == nil)
    #expect(binding.isDisposed)  // at once: no value needed
    #expect(subject.subscriberCount == 0)
    #expect(tracker.liveCount == 0)
  }

  @Test("a binding that ends first leaves its actor's lifetime: the lifetime no longer holds it")
  func bindingLeavesLifetime() async {
    let actor = LifetimeActor()
    let subject = Subject<Int, Never>()
    weak var weakBinding: (any Disposable)?
    do {
      let binding = subject.bind(isolatedTo: actor) { actor, value in actor.log.append("\(value)") }
      weakBinding = binding
      #expect(weakBinding != nil)
      subject.sendCompleted()
      await drained(actor.scheduler)
      #expect(binding.isDisposed)
    }
    #expect(weakBinding == nil)  // were it still a member of the living actor's lifetime, it would be alive
    withExtendedLifetime(actor) {}
  }

  @Test("a binding to an actor without a lifetime ends at the next value after the actor has gone, not before")
  func bindingToPlainActorEndsAtNextValue() async {
    weak var weakActor: QueueActor?
    let subject = Subject<Int, Never>()
    let tracker = LifetimeTracker()
    let binding: any Disposable
    do {
      let actor = QueueActor()
      weakActor = actor
      let captured = tracker.make()
      binding = subject.bind(isolatedTo: actor) { actor, value in
        withExtendedLifetime(captured) {}
        actor.log.append("\(value)")
      }
      subject.sendNext(1)
      await drained(actor.scheduler)
      #expect(await actor.log == ["1"])
    }
    #expect(weakActor == nil)
    // Swift has no hook on a plain actor's deinit: until a value arrives, the binding keeps the source
    // subscription and what the setter captured, as the docs say.
    #expect(!binding.isDisposed)
    #expect(subject.subscriberCount == 1)
    #expect(tracker.liveCount == 1)
    subject.sendNext(2)
    #expect(binding.isDisposed)
    #expect(subject.subscriberCount == 0)
    #expect(tracker.liveCount == 0)
  }

  @Test("bind(isolatedTo:) sets values in order and ends when the signal completes")
  func bindingSetsValues() async {
    let actor = QueueActor()
    let subject = Subject<Int, Never>()
    let binding = subject.bind(isolatedTo: actor) { actor, value in actor.log.append("\(value)") }
    onPlainThread {
      for value in 1...3 { subject.sendNext(value) }
      subject.sendCompleted()
    }
    await drained(actor.scheduler)
    #expect(await actor.log == ["1", "2", "3"])
    #expect(binding.isDisposed)
  }
}

/// A user's executor that happens to share the runtime's main executor's type name (issue 26).
private final class DispatchMainExecutor: SerialExecutor {
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    DispatchQueue.main.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}
