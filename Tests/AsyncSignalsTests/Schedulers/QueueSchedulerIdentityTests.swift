import Dispatch
import Testing

@testable import AsyncSignals

/// A queue whose scheduler has been released, and a new scheduler allocated at the released one's address (glibc
/// hands a freed chunk to the next allocation of its size); `nil` if no try lands there. The misses are returned to
/// be kept alive, so that each try frees and reuses a chunk of its own.
private func schedulerAtReusedAddress(
  name: String
) -> (oldQueue: DispatchQueue, scheduler: QueueScheduler, misses: [QueueScheduler])? {
  var misses: [QueueScheduler] = []
  for _ in 0..<1_000 {
    var old: QueueScheduler? = QueueScheduler(name: "old")
    let oldQueue = old!.queue  // a timer made on the queue keeps it alive just as this does
    let oldAddress = ObjectIdentifier(old!)
    old = nil
    let candidate = QueueScheduler(name: name)
    if ObjectIdentifier(candidate) == oldAddress { return (oldQueue, candidate, misses) }
    misses.append(candidate)
  }
  return nil
}

/// Runs `body` on `queue` and waits for it.
private func onQueue<T: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in queue.async { continuation.resume(returning: body()) } }
}

@Suite("QueueScheduler: which queue is it?")
struct QueueSchedulerIdentityTests {
  @Test("a scheduler allocated where a released one lived is not current on the queue that outlived it")
  func addressReuse() async throws {
    let (oldQueue, reused, others) = try #require(schedulerAtReusedAddress(name: "new"))
    #expect(await onQueue(oldQueue) { reused.isRunningOnQueue } == false)
    #expect(await onQueue(oldQueue) { reused.isIsolatingCurrentContext() } == false)
    #expect(await onQueue(reused.queue) { reused.isRunningOnQueue } == true)
    withExtendedLifetime(others) {}
  }

  @Test("an actor on a scheduler at a reused address: a send from the old queue is queued, not delivered there")
  func addressReuseIsolatedDelivery() async throws {
    let (oldQueue, reused, others) = try #require(schedulerAtReusedAddress(name: "actor's"))
    let actor = QueueActor(scheduler: reused)
    let subject = Subject<Int, Never>()
    let actorsQueue = DispatchSpecificKey<Bool>()
    reused.queue.setSpecific(key: actorsQueue, value: true)
    let deliveredOn = Locked<[String]>([])
    let subscription = subject.subscribeNext(isolatedTo: actor) { actor, value in
      deliveredOn.append(DispatchQueue.getSpecific(key: actorsQueue) == true ? "actor's queue" : "elsewhere")
    }
    let gate = closeGate(on: reused)  // the actor's job cannot run before the check below
    let deliveredBeforeReturn = await onQueue(oldQueue) { () -> Int in
      subject.sendNext(1)
      return deliveredOn.value.count
    }
    #expect(deliveredBeforeReturn == 0)  // the old queue is not the actor's executor: queued for its job
    gate.signal()
    await drained(reused)
    #expect(deliveredOn.value == ["actor's queue"])
    subscription.dispose()
    withExtendedLifetime(others) {}
  }

  @Test("a scheduler whose target is another's queue runs on that queue: the parent is current there too")
  func targetChain() async {
    let parent = QueueScheduler(name: "parent")
    let child = QueueScheduler(name: "child", targetQueue: parent.queue)
    let grandchild = QueueScheduler(name: "grandchild", targetQueue: child.queue)
    #expect(await onQueue(child.queue) { (parent.isRunningOnQueue, child.isRunningOnQueue) } == (true, true))
    #expect(await onQueue(grandchild.queue) { parent.isRunningOnQueue && child.isRunningOnQueue } == true)
    #expect(await onQueue(parent.queue) { child.isRunningOnQueue } == false)  // the parent is not its child
    let sibling = QueueScheduler(name: "sibling")
    #expect(await onQueue(sibling.queue) { parent.isRunningOnQueue } == false)
    #expect(await onQueue(child.queue) { parent.isIsolatingCurrentContext() } == true)
  }

  @Test("an actor whose executor is the parent: a send from a child scheduler's queue is delivered at once")
  func targetChainAtOnceDelivery() async {
    let actor = QueueActor()
    let child = QueueScheduler(name: "child", targetQueue: actor.scheduler.queue)
    let subject = Subject<Int, Never>()
    let log = Locked<[String]>([])
    let subscription = subject.subscribeNext(isolatedTo: actor) { actor, value in log.append("got \(value)") }
    child.schedule {
      subject.sendNext(1)
      log.append("sendNext returned")
    }
    await drained(child)
    await drained(actor.scheduler)
    #expect(log.value == ["got 1", "sendNext returned"])
    subscription.dispose()
  }
}

@Suite("QueueScheduler: nothing of a released scheduler stays on its queue")
struct QueueSchedulerReleaseTests {
  /// Dispatch keys a queue-specific value by the key's address. A scheduler released before its queue used to leave
  /// its mark there, so the next key allocated at the old key's address read a value it was never given (and a
  /// `String` key crashed in `getSpecific`, which casts unchecked). glibc hands a freed chunk to the next
  /// allocation of its size at once, so a key made right after the release usually lands on the old key's address;
  /// the test makes a few hundred such rounds, and every fresh key must read nothing on every old queue.
  @Test("a fresh key reads nothing on a queue that outlived its scheduler")
  func freshKeyReadsNothing() {
    var queues: [DispatchQueue] = []
    var keys: [DispatchSpecificKey<Int>] = []
    for _ in 0..<200 {
      var scheduler: QueueScheduler? = QueueScheduler(name: "released")
      queues.append(scheduler!.queue)
      scheduler = nil
      keys.append(DispatchSpecificKey<Int>())
    }
    for queue in queues {
      let read = queue.sync { keys.compactMap { DispatchQueue.getSpecific(key: $0) } }
      #expect(read.isEmpty, "a fresh key read \(read) on a released scheduler's queue")
    }
    #expect(withExtendedLifetime(keys) { true })
  }

  @Test("a released scheduler's queue is no longer its scheduler's; a live one's still is")
  func liveSchedulerStillMarks() {
    let live = QueueScheduler(name: "live")
    #expect(live.queue.sync { live.isRunningOnQueue })
    let child = QueueScheduler(name: "child", targetQueue: live.queue)
    #expect(child.queue.sync { live.isRunningOnQueue && child.isRunningOnQueue })
  }
}
