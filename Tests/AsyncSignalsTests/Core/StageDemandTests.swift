import Dispatch
import Testing

@testable import AsyncSignals

/// The composable demand of flow control, part 2 (issue 28): a stage's demand has room while its parent has room and
/// its own count is under its limit; resumptions wait on whichever of the two is full, and run where the stage says.
@Suite("Demand: a stage's room, composed with its parent's")
struct StageDemandTests {
  @Test("room while the parent has room and fewer than the limit are taken")
  func roomIsBoth() {
    let consumer = Demand()
    let stage = Demand(parent: consumer, limit: 2)
    #expect(stage.hasRoom)
    stage.take()
    #expect(stage.hasRoom)
    stage.take()
    #expect(!stage.hasRoom)  // its own limit
    stage.release()
    #expect(stage.hasRoom)
    consumer.close(generation: 1)
    #expect(!stage.hasRoom)  // the parent's
    _ = consumer.reopen(generation: 2)
    #expect(stage.hasRoom)
  }

  @Test("a resumption waits on the stage when it is full, and is woken by release()")
  func waitsOnTheStage() {
    let consumer = Demand()
    let stage = Demand(parent: consumer, limit: 1)
    stage.take()
    let woken = Locked(0)
    #expect(stage.resume { woken.increment() } != nil)
    #expect(consumer.reopen(generation: 1).isEmpty)  // nothing was registered with the parent
    stage.release()
    #expect(woken.value == 1)
  }

  @Test("a resumption is forwarded to the parent when the stage has room of its own, and woken by the consumer")
  func forwardedToTheParent() {
    let consumer = Demand()
    let stage = Demand(parent: consumer, limit: 1)
    consumer.close(generation: 1)
    let woken = Locked(0)
    let id = stage.resume { woken.increment() }
    #expect(id != nil)
    let resumptions = consumer.reopen(generation: 2)
    #expect(resumptions.count == 1)
    for resumption in resumptions { resumption() }
    #expect(woken.value == 1)
  }

  @Test("withdrawing through the stage finds a registration forwarded to the parent")
  func withdrawForwarded() {
    let consumer = Demand()
    let stage = Demand(parent: consumer, limit: 1)
    consumer.close(generation: 1)
    let id = stage.resume {}
    #expect(id != nil)
    #expect(stage.withdraw(id!) != nil)
    #expect(consumer.reopen(generation: 2).isEmpty)
  }

  @Test("room now: no registration, the producer goes on")
  func roomNow() {
    let stage = Demand(parent: Demand(), limit: 3)
    #expect(stage.resume {} == nil)
  }

  @Test(
    "release() runs a resumption that runs or queues its producer where the stage says; a task's resumption here",
    arguments: [true, false])
  func resumeOnElsewhere(runsProducer: Bool) {
    let queue = DispatchQueue(label: "StageDemandTests.resumeOn")
    let key = DispatchSpecificKey<Bool>()
    queue.setSpecific(key: key, value: true)
    let stage = Demand(parent: Demand(), limit: 1, resumeOn: { work in queue.async(execute: work) })
    stage.take()
    let ranOnQueue = Locked<Bool?>(nil)
    let done = DispatchSemaphore(value: 0)
    _ = stage.resume(
      whenRoom: {
        ranOnQueue.value = DispatchQueue.getSpecific(key: key) == true
        done.signal()
      }, runsProducer: runsProducer)
    stage.release()
    done.wait()
    // A resumption that only resumes a task costs no extra hop: it runs here.
    #expect(ranOnQueue.value == runsProducer)
  }

  @Test(
    "a walk with a queue of its own, paused by a stage, is resumed through the stage's resumeOn",
    arguments: [false, true])
  func walkOnItsQueueResumesThroughResumeOn(memoized: Bool) {
    let reader = QueueScheduler(name: "StageDemandTests.reader")
    let throughResumeOn = Locked(0)
    let stage = Demand(
      parent: Demand(), limit: 1,
      resumeOn: { work in
        throughResumeOn.increment()
        work()
      })
    stage.take()  // full before the walk starts: it pauses before its first value
    let received = Locked<[Int]>([])
    let completed = DispatchSemaphore(value: 0)
    let source = memoized ? MemoizedSequence(0..<3).signal(on: reader) : Signal.from(0..<3).subscribe(on: reader)
    let subscription = source.attach(
      Observer(
        { event in
          switch event {
          case .next(let value): received.value.append(value)
          case .completed: completed.signal()
          case .error: break
          }
          return .proceed
        }, demand: stage))
    reader.queue.sync {}  // the walk has run: it found no room, registered, and returned
    #expect(received.value.isEmpty)
    stage.release()
    completed.wait()
    // Queued from the releasing thread, the walk's blocks would be made there: what made a hop's peak memory grow.
    #expect(throughResumeOn.value == 1)
    #expect(received.value == [0, 1, 2])
    subscription.dispose()
  }

  @Test("a stage that has ended has room for good, and wakes what waited on it")
  func endedStage() {
    let stage = Demand(parent: Demand(), limit: 1)
    stage.take()
    let woken = Locked(0)
    _ = stage.resume { woken.increment() }
    for resumption in stage.end() { resumption() }
    #expect(woken.value == 1 && stage.hasRoom)
    stage.take()
    #expect(stage.hasRoom)
  }

  @Test("room() suspends until both the stage and its parent have room")
  func roomWaitsForBoth() async {
    let consumer = Demand()
    let stage = Demand(parent: consumer, limit: 1)
    stage.take()
    consumer.close(generation: 1)
    let returned = Locked(false)
    let executor = SerialTaskExecutor()
    let waiter = Task(executorPreference: executor) {
      await stage.room()
      returned.value = true
    }
    await executor.drained()  // the waiter is registered and suspended
    stage.release()  // the stage has room; the consumer has none: the waiter re-registers with it
    await executor.drained()
    #expect(!returned.value)
    for resumption in consumer.reopen(generation: 2) { resumption() }
    await waiter.value
    #expect(returned.value)
  }
}
