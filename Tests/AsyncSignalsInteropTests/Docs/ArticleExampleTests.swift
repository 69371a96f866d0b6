import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Testing

// The code samples that use AsyncSignalsInterop — in Interop.docc, and the `for await` samples of Docs.docc —
// one test each, copied line for line (Scripts/check-doc-samples.swift checks it) and run with the output the
// article states. The samples' `print` writes to `DocConsole.shared`.
private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

/// A failure of the Getting Started samples.
struct NotANumber: Error { let text: String }

/// The Interop samples, by article. On the main actor, as the articles assume: there a subscription starts at
/// once. Serialized, because the samples share one console.
@MainActor
@Suite("Interop article examples", .serialized)
struct InteropArticleExampleTests {
  let console = DocConsole.shared

  init() {
    console.reset()
  }

  // MARK: GettingStarted.md (Docs.docc)

  /// The countdown of Getting Started's "Create a signal".
  static func countdown() -> Signal<Int, Never> {
    Signal<Int, Never>.create { subscriber in
      for value in [3, 2, 1] { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return ActionDisposable { print("cleaned up") }
    }
  }

  /// The parsed numbers of Getting Started's "Subscribe".
  static func numbers() -> Signal<Int, NotANumber> {
    let texts = Signal<String, NotANumber>.create { subscriber in
      for text in ["1", "2", "three", "4"] { subscriber.sendNext(text) }
      subscriber.sendCompleted()
      return nil
    }
    return texts.tryMap { (text) throws(NotANumber) -> Int in
      guard let number = Int(text) else { throw NotANumber(text: text) }
      return number
    }
  }

  @Test("GettingStarted: for await reads the countdown; the values wait in the loop's buffer")
  func gettingStartedForAwait() async {
    let countdown = Self.countdown()
    for await value in countdown.values {
      print(value)
    }
    print("liftoff")
    // cleaned up, 3, 2, 1, liftoff
    #expect(console.lines == ["cleaned up", "3", "2", "1", "liftoff"])
  }

  @Test("GettingStarted: for try await throws the typed failure after the values before it")
  func gettingStartedForTryAwait() async {
    let numbers = Self.numbers()
    do {
      for try await number in numbers.values { print(number) }
    } catch {
      print("not a number:", error.text)  // `error` is a `NotANumber`
    }
    // 1, 2, not a number: three
    #expect(console.lines == ["1", "2", "not a number: three"])
  }

  @Test("GettingStarted: awaiting toArray() gives every value")
  func gettingStartedToArray() async {
    let countdown = Self.countdown()
    let all = await countdown.toArray()
    print(all)
    // cleaned up, [3, 2, 1]
    #expect(console.lines == ["cleaned up", "[3, 2, 1]"])
  }

  @Test("GettingStarted: Signal.async with the closure's type written out sends the search's result")
  func gettingStartedAsyncWork() async {
    let found = Signal.async { () async throws(SearchError) -> [String] in try await search("sw") }
    found.subscribeNext({ print($0) }, error: { print("search failed:", $0) })
    // ["swift", "swing"]
    let typed: Signal<[String], SearchError> = found
    _ = typed
    #expect(await console.lines(atLeast: 1) == [#"["swift", "swing"]"#])
  }
}
