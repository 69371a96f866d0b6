// No expect-error line: this snippet must type-check without errors or warnings. It is the docs' answer to
// IsolatedToMainActorFromMainActorCode.swift: from @MainActor code, `subscribeNext(onMainThread:)` takes
// `@MainActor` closures (at once on the main queue with nothing waiting), `subscribeNext(onMainActor:)` the same
// closures always later, and `bind(onMainActorTo:keyPath:)` sets a property.
import AsyncSignalsInterop

struct SearchError: Error {}

@MainActor final class SearchModel {
  var results: [String] = []
  var failure: SearchError?
  var subscriptions: [any Disposable] = []

  func follow(_ searches: Signal<[String], Never>, _ checked: Signal<[String], SearchError>) {
    subscriptions.append(searches.subscribeNext(onMainThread: { self.results = $0 }))
    subscriptions.append(checked.subscribeNext(onMainThread: { self.results = $0 }, error: { self.failure = $0 }))
    subscriptions.append(searches.subscribeNext(onMainActor: { self.results = $0 }))
    subscriptions.append(searches.bind(onMainActorTo: self, keyPath: \.results))
  }
}
