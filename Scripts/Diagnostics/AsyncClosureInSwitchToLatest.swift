// expect-error: invalid conversion of thrown error type 'any Error' to 'Never'
// The trap of issue 22: Swift 6.3 infers `throws(any Error)` for a closure that contains `try`, so `Signal.async`
// makes a `Signal<[String], any Error>` here, which switchToLatest cannot join to a text signal that cannot fail.
// The answer (Structured Concurrency, "Typed throws in async closures") is in FixesCompile.swift.
import AsyncSignalsInterop

enum SearchError: Error { case offline }
func search(_ text: String) async throws(SearchError) -> [String] { [text] }

let searchText = Subject<String, Never>()
let results = searchText
  .map { text in Signal.async { try await search(text) } }
  .switchToLatest()
