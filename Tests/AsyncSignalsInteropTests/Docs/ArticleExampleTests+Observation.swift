import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Observation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

// MARK: ObservingObservableModels.md: the models, at file scope (a macro cannot expand on a local type)

@MainActor
@Observable
final class SearchViewModel {
  var query = ""
  var results: [String] = []
  var isSearching = false
}

@MainActor
@Observable
final class CartModel {
  var items: [String] = []
}

/// The article's `catalog`: an async search over a few package names.
struct Catalog: Sendable {
  let names = ["swift", "swiftui", "vapor"]

  func search(_ query: String) async -> [String] {
    query.isEmpty ? names : names.filter { $0.hasPrefix(query) }
  }
}

private let catalog = Catalog()

extension InteropArticleExampleTests {
  @Test("ObservingObservableModels: the current query, then one value for two changes made in one main-actor job")
  func observingAProperty() async {
    let model = SearchViewModel()
    model.query = "sw"
    var queries = Signal.observing(model, \.query).values.makeAsyncIterator()
    print(await queries.next()!)  // the current value
    model.query = "swi"
    model.query = "swift"  // two changes in one main-actor job…
    print(await queries.next()!)  // …make one value, read after both
    // sw
    // swift
    #expect(console.lines == ["sw", "swift"])
  }

  @Test("ObservingObservableModels: the signal holds the model weakly and completes when it goes away")
  func observingCompletesWithTheModel() async {
    var model: SearchViewModel? = SearchViewModel()
    model?.query = "swift"
    var queries = Signal.observing(model!, \.query).values.makeAsyncIterator()
    print(await queries.next()!)
    model = nil  // the signal held it weakly…
    print(await queries.next() == nil)  // …and completed
    // swift
    // true
    #expect(console.lines == ["swift", "true"])
  }

  @Test("ObservingObservableModels: an expression over the model, one value per main-actor job that changes it")
  func observingAnExpression() async {
    let model = SearchViewModel()
    var summaries = Signal.observing(model) { model in
      model.isSearching ? "searching…" : "\(model.results.count) results"
    }.values.makeAsyncIterator()
    print(await summaries.next()!)
    model.isSearching = true
    print(await summaries.next()!)
    model.results = ["swift", "swiftui"]
    model.isSearching = false
    print(await summaries.next()!)
    // 0 results
    // searching…
    // 2 results
    #expect(console.lines == ["0 results", "searching…", "2 results"])
  }

  @Test("ObservingObservableModels: observing the query, searching, and binding the results back into the model")
  func observingAndBindingBack() async {
    let model = SearchViewModel()
    var results = Signal.observing(model, \.results).values.makeAsyncIterator()
    print(await results.next()!)
    Signal.observing(model, \.query)
      .flattenMap { query in Signal.async { await catalog.search(query) } }
      .bind(onMainActorTo: model, keyPath: \.results)
    print(await results.next()!)  // the search for "", the query's current value
    model.query = "swift"
    print(await results.next()!)
    // []
    // ["swift", "swiftui", "vapor"]
    // ["swift", "swiftui"]
    #expect(console.lines == [#"[]"#, #"["swift", "swiftui", "vapor"]"#, #"["swift", "swiftui"]"#])
  }

  @Test("ObservingObservableModels: any expression, read on the main actor where it is written")
  func observingAnyExpression() async {
    let model = SearchViewModel()
    let cart = CartModel()
    var badges = Signal.observing { "\(model.results.count) results, \(cart.items.count) in the cart" }
      .values.makeAsyncIterator()
    print(await badges.next()!)
    cart.items.append("book")
    print(await badges.next()!)
    // 0 results, 0 in the cart
    // 0 results, 1 in the cart
    #expect(console.lines == ["0 results, 0 in the cart", "0 results, 1 in the cart"])
  }
}
