import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

/// The failure of the landing page's sensor.
struct SensorError: Error { let code: Int }

/// The actors of Structured Concurrency's "Actors" section; actors are declared at file scope.
actor Tally {
  var total = 0
  func add(_ numbers: Signal<Int, Never>) async {
    for await number in numbers.values { total += number }  // actor state, no `await` needed
  }
}

actor ShoppingList {
  nonisolated let scheduler = QueueScheduler(name: "shopping list")
  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
  private var items: [String] = []

  func follow(_ additions: Signal<String, Never>) {
    additions.deliver(on: scheduler).subscribeNext { item in
      self.assumeIsolated { $0.items.append(item) }  // on the list's own queue: no hop, no await
    }
  }
  var count: Int { items.count }
}

/// The status label of Structured Concurrency's "The main actor".
@MainActor final class StatusLabel { var text = "" }

/// The search of Structured Concurrency's "Typed throws in async closures" and Getting Started's "Turn async work
/// into a signal".
enum SearchError: Error { case offline }
func search(_ text: String) async throws(SearchError) -> [String] { [text + "ift", text + "ing"] }

/// A search that always fails, for the answers the articles give in prose.
func failingSearch(_ text: String) async throws(SearchError) -> [String] { throw .offline }

extension InteropArticleExampleTests {
  // MARK: AsyncSignalsInterop.md (the landing page)

  @Test("AsyncSignalsInterop.md: for try await reads readings until one is over 100, and leaves the loop")
  func landingPageReadings() async {
    let readings = Signal<Double, SensorError>.create { subscriber in
      for celsius in [21.5, 99.0, 101.5, 20.0] { subscriber.sendNext(celsius) }
      subscriber.sendError(SensorError(code: 7))
      return nil
    }
    do {
      for try await celsius in readings.values {  // subscribes here; each loop has its own buffer
        print(celsius)
        if celsius > 100 { break }  // leaving the loop disposes the subscription
      }
    } catch {
      print("sensor failed:", error.code)  // `error` is a `SensorError`, not `any Error`
    }
    // 21.5, 99.0, 101.5
    #expect(console.lines == ["21.5", "99.0", "101.5"])
  }

  // MARK: StructuredConcurrency.md

  @Test("StructuredConcurrency: leaving the loop with break disposes the subscription")
  func concurrencyBreak() async {
    let sensor = Signal<Int, Never>.create { subscriber in
      for reading in 1...5 { subscriber.sendNext(reading) }
      return ActionDisposable { print("sensor stopped") }
    }
    for await reading in sensor.values {
      print("reading", reading)
      if reading == 2 { break }  // leaving the loop disposes the subscription
    }
    // reading 1, reading 2, sensor stopped
    #expect(console.lines == ["reading 1", "reading 2", "sensor stopped"])
  }

  @Test("StructuredConcurrency: a buffer of the newest two keeps the last frames and counts the drops")
  func concurrencyBuffering() async {
    let frames = Signal<Int, Never>.create { subscriber in
      for frame in 1...10 { subscriber.sendNext(frame) }
      subscriber.sendCompleted()
      return nil
    }
    let latest = frames.values(bufferingPolicy: .bufferingNewest(2))
    for await frame in latest { print("frame", frame) }
    print("dropped", latest.droppedCount)
    // frame 9, frame 10, dropped 8
    #expect(console.lines == ["frame 9", "frame 10", "dropped 8"])
  }

  @Test("StructuredConcurrency: cancelling the reading task disposes the subscription and ends the loop")
  func concurrencyCancellation() async {
    let forever = Signal<Int, Never>.create { subscriber in
      subscriber.sendNext(1)
      return ActionDisposable { print("unsubscribed") }
    }
    let reading = Task {
      for await value in forever.values { print("got", value) }
      print("loop ended, cancelled:", Task.isCancelled)
    }
    _ = await console.lines(atLeast: 1)
    reading.cancel()
    // got 1, unsubscribed, loop ended, cancelled: true
    await reading.value
    #expect(console.lines == ["got 1", "unsubscribed", "loop ended, cancelled: true"])
  }

  @Test("StructuredConcurrency: first(), last(), toArray() and forEach await the numbers")
  func concurrencyAwaiting() async {
    let numbers = Signal<Int, Never>.create { subscriber in
      for number in [1, 2, 3] { subscriber.sendNext(number) }
      subscriber.sendCompleted()
      return nil
    }
    let first = await numbers.first()
    let last = await numbers.last()
    let all = await numbers.toArray()
    print(first ?? 0, last ?? 0, all)
    // 1 3 [1, 2, 3]
    await numbers.forEach { print("number", $0) }
    // number 1, number 2, number 3
    #expect(console.lines == ["1 3 [1, 2, 3]", "number 1", "number 2", "number 3"])
  }

  @Test("StructuredConcurrency: Signal.async turns an async function into a signal of its result")
  func concurrencyAsyncFunction() async {
    struct Offline: Error {}
    func fetchGreeting() async throws(Offline) -> String { "hello" }

    let greeting = Signal.async(fetchGreeting)  // Signal<String, Offline>
    greeting.subscribeNext({ print("greeting:", $0) }, error: { _ in print("offline") })
    // greeting: hello
    #expect(await console.lines(atLeast: 1) == ["greeting: hello"])
  }

  @Test("StructuredConcurrency: a closure with try throws any Error; with its type written out, SearchError")
  func concurrencyTypedThrows() async throws {
    let untyped = Signal.async { try await search("sw") }  // Signal<[String], any Error>
    let typed = Signal.async { () async throws(SearchError) -> [String] in try await search("sw") }
    // typed: Signal<[String], SearchError>
    let staticallyUntyped: Signal<[String], any Error> = untyped  // compiles only with these static types
    let staticallyTyped: Signal<[String], SearchError> = typed
    #expect(try await staticallyUntyped.first() == ["swift", "swing"])
    #expect(try await staticallyTyped.first() == ["swift", "swing"])
  }

  @Test("StructuredConcurrency: the search box promotes the text's failure and follows the latest search")
  func concurrencySearchBox() async {
    let searchText = Subject<String, Never>()
    let results = searchText
      .promoteError(to: SearchError.self)  // the text cannot fail; a search can
      .flattenMapLatest { text in
        Signal.async { () async throws(SearchError) -> [String] in try await search(text) }
      }
    results.subscribeNext({ print("results:", $0) }, error: { print("search failed:", $0) })
    searchText.sendNext("sw")
    // results: ["swift", "swing"]
    let typedResults: Signal<[String], SearchError> = results
    _ = typedResults
    #expect(await console.lines(atLeast: 1) == [#"results: ["swift", "swing"]"#])
  }

  @Test("StructuredConcurrency: a failed search fails the box typed; caught inside, it is an empty result")
  func concurrencySearchFailure() async {
    let searchText = Subject<String, Never>()
    let results = searchText
      .promoteError(to: SearchError.self)
      .flattenMapLatest { text in
        Signal.async { () async throws(SearchError) -> [String] in try await failingSearch(text) }
      }
    results.subscribeNext({ print("results:", $0) }, error: { print("search failed:", $0) })
    let orEmpty: Signal<[String], Never> = searchText.flattenMapLatest { text in
      Signal.async { () async throws(SearchError) -> [String] in try await failingSearch(text) }.catch(to: .return([]))
    }
    orEmpty.subscribeNext({ print("or empty:", $0) }, completed: { print("or empty completed") })
    searchText.sendNext("sw")
    let lines = await console.lines(atLeast: 2)
    #expect(lines.sorted() == ["or empty: []", "search failed: offline"])
  }

  @Test("StructuredConcurrency: an untyped closure whose error is mapped explicitly has the mapped failure")
  func concurrencyMappedError() async {
    let mapped = Signal.async { try await failingSearch("sw") }
      .mapError { error in error as? SearchError ?? .offline }
    let typed: Signal<[String], SearchError> = mapped
    do {
      _ = try await typed.first()
      Issue.record("the search cannot succeed")
    } catch {
      #expect(error == .offline)  // `error` is a `SearchError`
    }
  }

  @Test("StructuredConcurrency: an AsyncStream becomes a signal that completes when the stream finishes")
  func concurrencyAsyncSequence() async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    stream.signal.subscribeNext({ print("from the stream:", $0) }, completed: { print("stream finished") })
    continuation.yield(1)
    continuation.finish()
    // from the stream: 1, stream finished
    #expect(await console.lines(atLeast: 2) == ["from the stream: 1", "stream finished"])
  }

  @Test("StructuredConcurrency: an actor adds up a signal's values inside its own isolation")
  func concurrencyActorLoop() async {
    let tally = Tally()
    await tally.add(
      Signal.create { subscriber in
        for number in 1...4 { subscriber.sendNext(number) }
        subscriber.sendCompleted()
        return nil
      })
    print(await tally.total)
    // 10
    #expect(console.lines == ["10"])
  }

  @Test("StructuredConcurrency: an actor on a QueueScheduler handles deliveries on its own queue")
  func concurrencyActorExecutor() async {
    let list = ShoppingList()
    let additions = Subject<String, Never>()
    await list.follow(additions)
    additions.sendNext("milk")
    additions.sendNext("eggs")
    print(await list.count)
    // 2
    #expect(console.lines == ["2"])
  }

  @Test("StructuredConcurrency: bind(onMainActorTo:) sets at once on the main queue; onMainActor callbacks")
  func concurrencyMainActor() async {
    let label = StatusLabel()
    let statuses = Subject<String?, Never>()
    statuses.bind(onMainActorTo: label, keyPath: \.text, nilValue: "—")
    statuses.sendNext("connected")  // sent on the main queue: set at once
    print(label.text)
    statuses.sendNext(nil)
    print(label.text)
    // connected, —

    let progress = Subject<Double, Never>()
    progress.subscribeNext(onMainActor: { label.text = "\(Int($0 * 100)) %" }, completed: { print(label.text) })
    progress.sendNext(0.5)
    progress.sendCompleted()
    // 50 %
    #expect(await console.lines(atLeast: 3) == ["connected", "—", "50 %"])
  }
}
