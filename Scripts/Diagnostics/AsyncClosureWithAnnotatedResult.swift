// expect-error: invalid conversion of thrown error type 'any Error' to 'SearchError'
// Annotating the result's type does not change how Swift 6.3 infers the closure's thrown type: still `any Error`.
import AsyncSignalsInterop

enum SearchError: Error { case offline }
func search(_ text: String) async throws(SearchError) -> [String] { [text] }

let results: Signal<[String], SearchError> = Signal.async { try await search("swift") }
