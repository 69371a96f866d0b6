import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Observation
import Testing

// MARK: Testing.md (Docs.docc), "Testing a view model", and ObservingObservableModels.md, "A model that owns its
// pipeline": the model at file scope (a macro cannot expand on a local type).

@MainActor
@Observable
final class BookSearchModel: LifetimeProviding {
  var query = ""
  private(set) var results: [String] = []
  let lifetime = Lifetime()  // ends the pipeline, and the search in flight, when the model goes away

  init(scheduler: any Scheduler = QueueScheduler.main, search: @escaping @Sendable (String) async -> [String]) {
    Signal.observing(self, \.query)
      .throttle(.milliseconds(300), on: scheduler)
      .flattenMapLatest { query in Signal.async { await search(query) } }
      .bind(onMainActorTo: self, keyPath: \.results)
  }
}

/// The Testing article's view-model sample, run 200 times in a row (issue 27): the observation, the throttle on the
/// test scheduler, the search in a task, and the main-actor binding settle with no `Task.yield()` and no
/// `deliver(on:)` before the bind. Not serialized with the console samples: it prints nothing.
@MainActor
@Suite("Testing a view model (the Testing article's sample)")
struct ViewModelSampleTests {
  @Test(
    "Testing: a view model's search, throttled on the test scheduler, settles with no yield (200 runs)",
    arguments: [0, 3])
  func testingAViewModel(suspensions: Int) async throws {
    for _ in 0..<200 {
      let scheduler = TestScheduler()
      let model = BookSearchModel(scheduler: scheduler) { query in
        for _ in 0..<suspensions { await Task.yield() }  // a fake service that suspends before it answers
        return ["Swift in Depth", "SwiftUI by Example", "Vapor"].filter { $0.hasPrefix(query) }
      }
      model.query = "Swift"
      try await scheduler.settle(advancingBy: .milliseconds(299))
      #expect(model.results == [])  // still within the throttle's pause
      try await scheduler.settle(advancingBy: .milliseconds(1))
      #expect(model.results == ["Swift in Depth", "SwiftUI by Example"])
      model.query = "V"
      try await scheduler.settle(advancingBy: .milliseconds(300))
      #expect(model.results == ["Vapor"])
    }
  }

  @Test("Testing: the view-model sample as the article shows it, its search answering at once")
  func testingAViewModelAsShown() async throws {
    let scheduler = TestScheduler()
    let model = BookSearchModel(scheduler: scheduler) { query in
      ["Swift in Depth", "SwiftUI by Example", "Vapor"].filter { $0.hasPrefix(query) }
    }
    model.query = "Swift"
    try await scheduler.settle(advancingBy: .milliseconds(299))
    #expect(model.results == [])  // still within the throttle's pause
    try await scheduler.settle(advancingBy: .milliseconds(1))
    #expect(model.results == ["Swift in Depth", "SwiftUI by Example"])
    model.query = "V"
    try await scheduler.settle(advancingBy: .milliseconds(300))
    #expect(model.results == ["Vapor"])
  }

  @Test("Observation: a model that owns its pipeline cancels the search in flight when it goes away")
  func ownedPipelineEndsWithTheModel() async throws {
    let scheduler = TestScheduler()
    let started = Gate()
    let cancelled = Gate()
    var model: BookSearchModel? = BookSearchModel(scheduler: scheduler) { query in
      await withTaskCancellationHandler {
        started.open()
        await cancelled.wait()  // a search that takes until it is cancelled
        return []
      } onCancel: {
        cancelled.open()
      }
    }
    weak let weakModel = model
    model?.query = "Swift"
    try await scheduler.settle(advancingBy: .milliseconds(299))
    scheduler.advance(by: .milliseconds(1))  // the throttle fires: the search starts, in a task
    await started.wait()
    model = nil
    #expect(weakModel == nil)
    await cancelled.wait()  // the lifetime ended with the model, and disposed the pipeline: the task is cancelled
  }

  @Test("Observation: without LifetimeProviding, the search in flight runs to its end, then the binding ends")
  func unownedPipelineRunsToItsEnd() async throws {
    @MainActor
    final class Unowned {
      var results: [String] = []
    }
    let scheduler = TestScheduler()
    let started = Gate()
    let finish = Gate()
    let cancelled = Locked(false)
    let finished = Gate()
    var model: Unowned? = Unowned()
    weak let weakModel = model
    let query = Subject<String, Never>()
    query.throttle(.milliseconds(300), on: scheduler)
      .flattenMapLatest { _ in
        Signal.async {
          await withTaskCancellationHandler {
            started.open()
            await finish.wait()
            finished.open()
            return ["done"]
          } onCancel: {
            cancelled.value = true
          }
        }
      }
      .bind(onMainActorTo: model!, keyPath: \.results)
    query.sendNext("Swift")
    scheduler.advance(by: .milliseconds(300))
    await started.wait()
    model = nil
    #expect(weakModel == nil)  // the binding held it weakly
    finish.open()
    await finished.wait()
    #expect(!cancelled.value)  // nothing disposed the pipeline: the search ran to its end
    try await scheduler.settle()  // the binding's main-actor job for the result finds the model gone, and ends it
    #expect(query.subscriberCount == 0)
  }
}
