// No expect-error line: this snippet must type-check without errors or warnings. It is the control for the
// others: the fixes their messages suggest compile, a signal that cannot fail keeps the short forms (no
// ambiguity with the unavailable overloads), and `import AsyncSignalsInterop` alone gives the core API too.
import AsyncSignalsInterop

struct APIError: Error {}

func show(_ results: [String]) {}
func showError(_ error: APIError) {}

let search = Signal<[String], APIError>.return(["swift"])
_ = search.subscribeNext({ show($0) }, error: { showError($0) })
_ = search.subscribeNext({ show($0) }, error: { showError($0) }, completed: {})
_ = search.catch { _ in .empty }.subscribeNext { show($0) }
_ = search.catch(to: .return([])).subscribeNext { show($0) }
_ = search.subscribeError({ showError($0) }, completed: {})

let clicks = Signal<Int, Never>.return(1)
_ = clicks.subscribeNext { print($0) }
_ = clicks.subscribeNext({ print($0) }, completed: {})
_ = clicks.subscribeCompleted {}
_ = clicks.promoteError(to: APIError.self).subscribeNext({ print($0) }, error: { print($0) })

// Typed throws in async closures: the answers Structured Concurrency and Getting Started give to the failing forms
// of AsyncClosure*.swift — the closure's type written out, a function reference, or an untyped closure whose
// error is mapped explicitly. The searches can fail and the text cannot: promote the text's failure type, or
// catch each search's failure. (In a function, so that its `search` does not meet the one above.)
func typedThrowsAnswers() {
  enum SearchError: Error { case offline }
  @Sendable func search(_ text: String) async throws(SearchError) -> [String] { [text] }
  let searchText = Subject<String, Never>()

  let results: Signal<[String], SearchError> = searchText
    .promoteError(to: SearchError.self)
    .flattenMapLatest { text in
      Signal.async { () async throws(SearchError) -> [String] in try await search(text) }
    }
  let resultsOrEmpty: Signal<[String], Never> = searchText.flattenMapLatest { text in
    Signal.async { () async throws(SearchError) -> [String] in try await search(text) }.catch(to: .return([]))
  }
  let switched: Signal<[String], SearchError> = searchText
    .promoteError(to: SearchError.self)
    .map { text in Signal.async { () async throws(SearchError) -> [String] in try await search(text) } }
    .switchToLatest()
  @Sendable func searchSwift() async throws(SearchError) -> [String] { try await search("swift") }
  let byReference: Signal<[String], SearchError> = Signal.async(searchSwift)
  let mapped: Signal<[String], SearchError> = Signal.async { try await search("swift") }
    .mapError { error in error as? SearchError ?? .offline }
  _ = (results, resultsOrEmpty, switched, byReference, mapped)
}
