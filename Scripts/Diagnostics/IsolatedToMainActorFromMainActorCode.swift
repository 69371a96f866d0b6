// expect-error: main actor-isolated property 'results' can not be mutated from a nonisolated context
// expect-error: closure with 'isolated' parameter '_' cannot have a global actor
// The form a new user tries in @MainActor code: an `isolated MainActor` parameter does not make the closure
// main-actor isolated, and a closure with an isolated parameter cannot be marked `@MainActor` either. The docs'
// answer (the Actors article, `subscribeNext(onMainThread:)`'s doc comment) is in MainThreadFixesCompile.swift.
import AsyncSignalsInterop

@MainActor final class SearchModel {
  var results: [String] = []

  func follow(_ searches: Signal<[String], Never>) -> any Disposable {
    searches.subscribeNext(isolatedTo: MainActor.shared) { _, value in self.results = value }
  }

  func followMarked(_ searches: Signal<[String], Never>) -> any Disposable {
    searches.subscribeNext(isolatedTo: MainActor.shared) { @MainActor _, value in self.results = value }
  }
}
