import Dispatch
import Foundation
import Observation
import Synchronization
import Testing

@testable import AsyncSignals
@testable import AsyncSignalsInterop

/// A model whose observation starts a poller: a `Signal.async` that goes on sending for as long as the model lives,
/// the shape of an auto-refresh or a stream reader (`Signal.observing` → `flattenMapLatest { Signal.async { … } }` →
/// `bind(onMainActorTo:)`).
@MainActor
@Observable
final class PollingModel: LifetimeProviding {
  var feed = "news"
  private(set) var latest = 0
  let lifetime = Lifetime()

  init(poll: @escaping @Sendable (String) async -> Int?) {
    Signal.observing(self, \.feed)
      .flattenMapLatest { feed in
        Signal<Int, Never>.async { subscriber in
          while !Task.isCancelled, let reading = await poll(feed) { await subscriber.send(reading) }
        }
      }
      .bind(onMainActorTo: self, keyPath: \.latest)
  }
}

/// A poll that answers 1, 2, 3, … after a short wait, as a server would; `polled` opens once it has answered `opensAt`
/// times (a value the pipeline has produced, which the test hands off with).
final class FakeFeed: Sendable {
  let polled = Gate()
  private let count = Atomic<Int>(0)
  private let opensAt: Int

  init(opensAt: Int = 3) {
    self.opensAt = opensAt
  }

  func poll(_ feed: String) async -> Int? {
    try? await Task.sleep(for: .milliseconds(2))  // the server's round trip: the poller is never done
    let reading = count.add(1, ordering: .relaxed).newValue
    if reading == opensAt { polled.open() }
    return reading
  }
}

/// What a `settle` waits for when main-actor work starts work that does not end: a task counts until its first event,
/// and each `settle` measures progress on the work it waits for alone.
@MainActor
@Suite("TestScheduler.settle: long-lived work started by main-actor work")
struct MainActorSettleEpochTests {
  @Test("an unrelated settle beside a model's poller returns: the poller counted until its first value only")
  func unrelatedSettleBesidePoller() async throws {
    let feed = FakeFeed()
    let model = PollingModel(poll: feed.poll)
    await feed.polled.wait()  // the poller runs, and has sent three readings
    let settled = await finishes(within: 120) { try? await TestScheduler().settle() }
    #expect(settled, "a settle with no work of its own was held by another model's poller")
    withExtendedLifetime(model) {}  // the model's lifetime ends the poller as the test ends
  }

  @Test("the model's own settle returns beside its poller, with the first reading bound")
  func ownSettleBesidePoller() async throws {
    let feed = FakeFeed(opensAt: 1)
    let model = PollingModel(poll: feed.poll)
    let scheduler = TestScheduler()
    let settled = await finishes(within: 120) { @MainActor in try? await scheduler.settle() }
    #expect(settled)
    #expect(model.latest >= 1)  // the chain main → task → main settled as one piece, up to the first reading
  }

  @Test("main → task → main settles as one piece when the task suspends several times before its first value")
  func chainWithSuspensionsBeforeTheFirstValue() async throws {
    for _ in 0..<50 {
      // No test scheduler in the chain: the search's task is counted as main-actor work, not as tracked work.
      let model = SearchScreen(throttleOn: nil) { query in
        for _ in 0..<5 { await Task.yield() }  // a fake service that suspends before it answers
        return ["swift", "vapor"].filter { $0.hasPrefix(query) }
      }
      model.query = "v"
      try await TestScheduler().settle()
      #expect(model.results == ["vapor"])
      #expect(model.resultCount == 1)
    }
  }

  @Test("a settle whose own work makes no progress throws noProgress and names it, however busy the process is")
  func noProgressOfItsOwnWork() async throws {
    let never = Gate()
    let model = SearchScreen(throttleOn: nil) { _ in
      await never.wait()  // a search that never answers: its task counts until its first event
      return []
    }
    model.query = "swift"
    // Other work keeps finishing in the process all along, as other tests' would, made due after the settle looked:
    // progress, but not of the settle's own epochs.
    let stop = Atomic<Bool>(false)
    let busy = plainThread {
      var held = MainActorJobs.begin(.delivery)
      while !stop.load(ordering: .relaxed) {
        let next = MainActorJobs.begin(.delivery)
        MainActorJobs.end(held, .delivery)
        held = next
        usleep(200)
      }
      MainActorJobs.end(held, .delivery)
    }
    let outcome = Locked<TestScheduler.SettleError?>(nil)
    let returned = await finishes(within: 120) { @MainActor in
      await TestScheduler.$mainActorPatience.withValue(.milliseconds(300)) {
        do throws(TestScheduler.SettleError) {
          try await TestScheduler().settle(timeout: .milliseconds(100))
        } catch {
          outcome.value = error
        }
      }
    }
    stop.store(true, ordering: .relaxed)
    never.open()  // the search answers, and its task stops counting: no later test waits for it
    await busy.wait()
    try await TestScheduler().settle()
    #expect(returned, "the settle kept waiting: the process's progress hid that its own work made none")
    let error = try #require(outcome.value)
    #expect(error.reason == .noProgress(.milliseconds(300)))
    // Other tests' work of the same epochs may be left too: at least the search is named.
    #expect(error.mainActorWorkLeft.asyncTasks >= 1)
    #expect(error.description.contains("Signal.async task(s) started by main-actor work that have not sent"))
    withExtendedLifetime(model) {}
  }

  @Test("a task started by main-actor work stops counting at its first event, not at its end")
  func taskCountsUntilItsFirstEvent() async throws {
    let sendSecond = Gate()
    let sentFirst = Gate()
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let subscription = subject
      .flattenMap { _ in
        Signal<Int, Never>.async { subscriber in
          for _ in 0..<3 { await Task.yield() }
          await subscriber.send(1)
          sentFirst.open()
          await sendSecond.wait()  // lives on after its first value, as a poller does
          await subscriber.send(2)
        }
      }
      .subscribeNext(onMainActor: { received.append($0) })
    // From a counted main-actor job: the task it starts counts with it.
    MainActorJobs.enqueueOnMainQueue { subject.sendNext(0) }
    let settled = await finishes(within: 120) { @MainActor in try? await TestScheduler().settle() }
    #expect(settled, "settle waited for the task's end, which only the test can bring about")
    #expect(received.value == [1])  // waited for the task's first value, and its delivery on the main actor
    await sentFirst.wait()
    sendSecond.open()
    subscription.dispose()
  }
}
