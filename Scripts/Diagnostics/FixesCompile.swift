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
