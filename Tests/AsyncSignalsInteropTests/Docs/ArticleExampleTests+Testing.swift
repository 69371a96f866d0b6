import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Testing

/// The `catalog` of Testing.md's "Testing async work" (Docs.docc): the same async search as the Observation
/// article's.
private let catalog = Catalog()

// MARK: Testing.md (Docs.docc), "Testing async work": its samples use AsyncSignalsInterop, so they live here.

extension InteropArticleExampleTests {
  @Test("Testing: a Command with async work, settled: executing around the work, and its typed error on errors")
  func testingCommandWithAsyncWork() async throws {
    enum SearchError: Error { case emptyQuery }

    let scheduler = TestScheduler()
    let search = Command<String, [String], SearchError>(scheduler: scheduler) { query async throws(SearchError) in
      guard !query.isEmpty else { throw .emptyQuery }
      return await catalog.search(query)
    }
    let executing = ObservableValue<[Bool]>([])
    let errors = ObservableValue<[SearchError]>([])
    search.executing.subscribeNext { executing.value.append($0) }
    search.errors.subscribeNext { errors.value.append($0) }

    _ = search.execute("swift")
    try await scheduler.settle()  // the start, the work in its task, then the end the work scheduled
    #expect(executing.value == [false, true, false])

    _ = search.execute("")
    try await scheduler.settle()
    #expect(errors.value == [.emptyQuery])
    #expect(executing.value == [false, true, false, true, false])
  }

  @Test("Testing: a search behind a throttle, settled over virtual time")
  func testingThrottledAsyncWork() async throws {
    let scheduler = TestScheduler()
    let queries = Subject<String, Never>()
    let results = ObservableValue<[[String]]>([])
    queries.throttle(.milliseconds(300), on: scheduler)
      .flattenMap { query in Signal.async { await catalog.search(query) } }
      .subscribeNext { results.value.append($0) }

    queries.sendNext("s")
    queries.sendNext("swift")
    try await scheduler.settle(advancingBy: .milliseconds(299))
    #expect(results.value == [])
    try await scheduler.settle(advancingBy: .milliseconds(1))  // the throttle fires, the search runs and returns
    #expect(results.value == [["swift", "swiftui"]])
  }

  @Test("Testing: work that waits in an awaiting call is idle; settle() returns and pendingAsyncWork counts it")
  func testingWorkInFlight() async throws {
    let scheduler = TestScheduler()
    let release = Subject<Void, Never>()
    let upload = Command<Void, Void, Never>(scheduler: scheduler) { _ in
      _ = await release.first()  // waits for the test
    }
    let executing = ObservableValue<[Bool]>([])
    upload.executing.subscribeNext { executing.value.append($0) }

    _ = upload.execute()
    try await scheduler.settle()  // returns while the work waits in first()
    #expect(executing.value == [false, true])
    #expect(scheduler.pendingAsyncWork == 1)
    release.sendNext(())
    try await scheduler.settle()
    #expect(executing.value == [false, true, false])
  }
}
