import Dispatch
import Foundation
import Observation
import Synchronization
import Testing

@testable import AsyncSignals
@testable import AsyncSignalsInterop

/// A main-actor view model whose pipeline starts at an observation and ends in a main-actor binding, the shape of an
/// app's search screen; `search` is the async work, and `chain` hops main → task → main → main.
@MainActor
@Observable
final class SearchScreen: LifetimeProviding {
  var query = ""
  var results: [String] = []
  var resultCount = 0
  let lifetime = Lifetime()

  init(throttleOn scheduler: (any Scheduler)?, search: @escaping @Sendable (String) async -> [String]) {
    let queries = Signal.observing(self, \.query)
    let throttled = scheduler.map { queries.throttle(.milliseconds(300), on: $0) } ?? queries
    throttled
      .flattenMapLatest { query in Signal.async { await search(query) } }  // a task, off the main actor
      .bind(onMainActorTo: self, keyPath: \.results)  // sent from the task's thread: a main-queue job
    Signal.observing(self, \.results)  // another main-actor job per change
      .map(\.count)
      .deliverOnMainThread()
      .bind(onMainActorTo: self, keyPath: \.resultCount)
  }
}

/// The search a test gives a model: the query's matches, and a log of the queries it was called with.
final class FakeCatalog: Sendable {
  let calls = Locked<[String]>([])

  func search(_ query: String) async -> [String] {
    calls.append(query)
    return ["swift", "swiftui", "vapor"].filter { $0.hasPrefix(query) }
  }
}

/// Issue 27, item 3: `settle()` waits for the main-actor jobs the library enqueues — an observation's evaluation
/// from the `willSet` that makes it due, a binding's job on the main queue — and for the async work they start. None
/// of these tests yields: each waits through `settle()` alone. Each failed before, when `settle()` returned at once
/// because no test scheduler's block was involved. Run them pinned beside a busy thread (`taskset -c 0`) too.
@MainActor
@Suite("TestScheduler.settle: the library's main-actor jobs")
struct MainActorSettleTests {
  @Test("a change to an observed property reaches the test scheduler after one settle")
  func observedChangeReachesTheScheduler() async throws {
    let scheduler = TestScheduler()
    let catalog = FakeCatalog()
    let model = SearchScreen(throttleOn: scheduler, search: catalog.search)
    model.query = "sw"
    try await scheduler.settle()
    #expect(scheduler.scheduledCount == 1)  // the throttle's block for "sw"
    try await scheduler.settle(advancingBy: .milliseconds(300))
    #expect(catalog.calls.value == ["sw"])
    #expect(model.results == ["swift", "swiftui"])
  }

  @Test("a chain main → task → main → main is complete after one settle")
  func mainTaskMainMain() async throws {
    let scheduler = TestScheduler()
    let model = SearchScreen(throttleOn: nil, search: FakeCatalog().search)
    model.query = "swift"
    try await scheduler.settle()
    #expect(model.results == ["swift", "swiftui"])
    #expect(model.resultCount == 2)
    model.query = "v"
    try await scheduler.settle()
    #expect(model.results == ["vapor"])
    #expect(model.resultCount == 1)
  }

  @Test("settle(advancingBy:) waits for the main-actor jobs before it looks at the clock and after each block")
  func advancingWaitsForMainActorJobs() async throws {
    let scheduler = TestScheduler()
    let catalog = FakeCatalog()
    let model = SearchScreen(throttleOn: scheduler, search: catalog.search)
    model.query = "s"
    try await scheduler.settle(advancingBy: .milliseconds(100))
    model.query = "swift"
    try await scheduler.settle(advancingBy: .milliseconds(299))
    #expect(catalog.calls.value == [])
    #expect(model.results == [])
    try await scheduler.settle(advancingBy: .milliseconds(1))
    #expect(catalog.calls.value == ["swift"])
    #expect(model.results == ["swift", "swiftui"] && model.resultCount == 2)
  }

  @Test("subscribeNext(onMainActor:), deliver(on: .main) and a main-queue Command are waited for")
  func otherMainActorDeliveries() async throws {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let received = Locked<[String]>([])
    let onMainActor = subject.subscribeNext(onMainActor: { received.append("onMainActor \($0)") })
    let deliveredOnMain = subject.deliver(on: QueueScheduler.main).subscribeNext { received.append("main \($0)") }
    let onMainThread = subject.subscribeNext(onMainThread: { received.append("onMainThread \($0)") })
    let command = Command<Int, Int, Never>(scheduler: QueueScheduler.main) { $0 * 10 }
    let outputs = command.executionSignals.flatten().subscribeNext { received.append("command \($0)") }
    await Task.detached {
      subject.sendNext(1)  // from a thread off the main queue: every delivery is a main-queue job
      _ = command.execute(2)
    }.value
    try await scheduler.settle()
    #expect(Set(received.value) == ["onMainActor 1", "main 1", "onMainThread 1", "command 20"])
    withExtendedLifetime((onMainActor, deliveredOnMain, onMainThread, outputs)) {}
  }

  @Test("a subscription paused for a bounded loop's room is not work: settle returns while the loop takes nothing")
  func pausedObservationIsNotWork() async throws {
    let scheduler = TestScheduler()
    let counter = Counter()
    let tookFirst = Gate()
    let release = Gate()
    let counts = Signal.observing(counter, \.count).values(bufferingPolicy: .bounded(1))
    let loop = Task.detached {
      for await _ in counts {
        tookFirst.open()
        await release.wait()  // takes nothing more: the observation pauses once its value fills the buffer
      }
    }
    await tookFirst.wait()
    counter.count = 1  // evaluated and buffered: the buffer is full
    try await scheduler.settle()
    counter.count = 2  // evaluated; the observation pauses with the value, for the loop has no room
    try await scheduler.settle()
    counter.count = 3  // due while paused: not work until the pause ends
    let settled = await finishes { try? await scheduler.settle() }
    #expect(settled)
    release.open()
    loop.cancel()
  }

  @Test("a timer on the main queue is not work: settle does not wait for it")
  func timerIsNotWork() async throws {
    let scheduler = TestScheduler()
    let fired = Locked(false)
    // Far enough that the other tests' main-actor work (which a settle does wait for, process-wide) ends long before
    // it; if the timer counted, settle would wait for it or give up with noProgress, and fail either way.
    let timer = QueueScheduler.main.schedule(afterDelay: .seconds(120)) { fired.value = true }
    try await scheduler.settle()
    #expect(!fired.value)
    timer?.dispose()
  }
}

/// The process-wide count against a shared main actor (issue 27): other code may keep the main actor busy for longer
/// than a short timeout, and settling waits for it rather than give up.
@Suite("TestScheduler.settle: main-actor jobs are given time, whatever the timeout")
struct MainActorPatienceTests {
  @Test("a main-actor job that takes longer than a short timeout is waited for, not reported")
  func slowMainActorJob() async throws {
    let scheduler = TestScheduler()
    let ran = Locked(false)
    QueueScheduler.main.schedule {
      usleep(300_000)  // a main-actor job of 0.3 s: three times the timeout below
      ran.value = true
    }
    try await scheduler.settle(timeout: .milliseconds(100))
    #expect(ran.value)
  }

  @Test("settle waits for the whole chain that work due when it looked starts, however long")
  func waitsForTheChainOfDueWork() async throws {
    let scheduler = TestScheduler()
    let hops = Locked(0)
    // Each job enqueues the next from inside itself: one chain of 50 main-queue jobs, of the epoch of the first.
    @Sendable func hop() {
      hops.withLock { $0 += 1 }
      if hops.value < 50 { MainActorJobs.enqueueOnMainQueue(hop) }
    }
    MainActorJobs.enqueueOnMainQueue(hop)
    try await scheduler.settle()
    #expect(hops.value == 50)
  }

  @Test("settle does not wait for work made due after it looked: a producer that never stops does not hold it")
  func doesNotWaitForLaterWork() async throws {
    let scheduler = TestScheduler()
    let stop = Atomic<Bool>(false)
    let jobs = Atomic<Int>(0)
    let running = Gate()
    // A thread that always holds a unit of counted work, each made due from outside counted work, taking the next
    // before it gives the last back: with a count alone, settle would never see zero, and would wait for as long as
    // the producer runs. (Main-queue jobs cannot do this without blocking the main thread: one that ran before the
    // next was enqueued would let the count touch zero.)
    let producer = Thread {
      var held = MainActorJobs.begin(.delivery)
      while !stop.load(ordering: .relaxed) {
        let next = MainActorJobs.begin(.delivery)
        MainActorJobs.end(held, .delivery)
        held = next
        if jobs.add(1, ordering: .relaxed).newValue == 10 { running.open() }
        usleep(100)
      }
      MainActorJobs.end(held, .delivery)
    }
    producer.start()
    await running.wait()  // ten units have come and gone: the producer is going
    let settled = await finishes { try? await scheduler.settle() }
    stop.store(true, ordering: .relaxed)
    #expect(settled)
  }
}

/// Twenty tests of the same shape at once: the count is process-wide, so each test's `settle()` also waits for the
/// others' main-actor jobs, which must all finish.
@MainActor
@Suite("TestScheduler.settle: twenty view-model tests in parallel")
struct ParallelMainActorSettleTests {
  @Test("a view model settles while nineteen others do", arguments: 0..<20)
  func parallel(index: Int) async throws {
    let scheduler = TestScheduler()
    let catalog = FakeCatalog()
    let model = SearchScreen(throttleOn: scheduler, search: catalog.search)
    model.query = index.isMultiple(of: 2) ? "sw" : "v"
    try await scheduler.settle(advancingBy: .milliseconds(300))
    #expect(model.results == (index.isMultiple(of: 2) ? ["swift", "swiftui"] : ["vapor"]))
    #expect(model.resultCount == model.results.count)
  }
}
