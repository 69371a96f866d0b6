import AsyncSignals
import AsyncSignalsInterop
import Dispatch
import Testing

/// State that only its actor touches: the closures below read and write it with no `await`.
actor Ledger {
  var entries: [String] = []
  var calls = 0

  func entry(_ text: String) -> Signal<Int, Never> {
    Signal.async(isolatedTo: self) { ledger in
      ledger.entries.append(text)  // isolated: no await
      ledger.calls += 1
      return ledger.calls
    }
  }

  func stream(_ texts: [String]) -> Signal<String, Never> {
    Signal.async(isolatedTo: self) { ledger, subscriber in
      for text in texts {
        ledger.entries.append(text)
        subscriber.sendNext(text)
      }
    }
  }

  func record<S: AsyncSequence & Sendable>(_ sequence: S) -> Signal<Int, Never>
  where S.Element == Int, S.Failure == Never {
    sequence.signal(isolatedTo: self).doNext { _ in }
  }

  func makeCommand() -> Command<String, Int, Never> {
    Command(isolatedTo: self) { ledger, text in
      ledger.entries.append("command \(text)")
      return ledger.entries.count
    }
  }
}

@Suite("Async work on the caller's actor")
struct IsolationTests {
  @Test("Signal.async(isolatedTo:) runs the function in the actor's isolation, once per subscription")
  func asyncIsolatedTo() async throws {
    let ledger = Ledger()
    let signal = await ledger.entry("a")
    #expect(await signal.first() == 1)
    #expect(await signal.first() == 2)  // cold: a second subscription runs it again
    #expect(await ledger.entries == ["a", "a"])
  }

  @Test("Signal.async(isolatedTo:) with a subscriber sends from the actor, then completes")
  func asyncBodyIsolatedTo() async throws {
    let ledger = Ledger()
    let values = await ledger.stream(["x", "y"]).toArray()
    #expect(values == ["x", "y"])
    #expect(await ledger.entries == ["x", "y"])
  }

  @Test("a @MainActor closure given to Signal.async runs on the main actor")
  func mainActorClosure() async throws {
    let signal = Signal<Bool, Never>.async { @MainActor in
      MainActor.assertIsolated()
      return true
    }
    #expect(await signal.first() == true)
  }

  @Test("a closure literal given to Signal.async runs detached, off the subscribing actor, as before")
  func detachedByDefault() async {
    /// An actor on a queue that carries a marker, so that code can tell whether it runs there.
    actor Caller {
      static let marker = DispatchSpecificKey<Bool>()
      nonisolated let scheduler: QueueScheduler = {
        let scheduler = QueueScheduler(name: "caller")
        scheduler.queue.setSpecific(key: Caller.marker, value: true)
        return scheduler
      }()
      nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }

      func run() async -> (onCaller: Bool, workOnCaller: Bool?) {
        let signal = Signal<Bool, Never>.async { DispatchQueue.getSpecific(key: Caller.marker) == true }
        return (DispatchQueue.getSpecific(key: Caller.marker) == true, await signal.first())
      }
    }
    let (onCaller, workOnCaller) = await Caller().run()
    #expect(onCaller)  // the marker works
    #expect(workOnCaller == false)
  }

  @Test("AsyncSequence.signal(isolatedTo:) iterates in the actor's isolation")
  func sequenceIsolatedTo() async throws {
    let ledger = Ledger()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    for value in 1...3 { continuation.yield(value) }
    continuation.finish()
    let signal = await ledger.record(stream)
    let isolated = Locked<[Bool]>([])
    let values = await signal.doNext { _ in
      // Elements are sent from the actor's executor, inside its isolation.
      isolated.append(withUnsafeCurrentTask { $0 != nil })
      ledger.assertIsolated()
    }.toArray()
    #expect(values == [1, 2, 3])
    #expect(isolated.value == [true, true, true])
  }

  @Test("Command(isolatedTo:) runs each execution's work in the actor's isolation")
  func commandIsolatedTo() async throws {
    let ledger = Ledger()
    let command = await ledger.makeCommand()
    let count = try await command.execute("save").first()
    #expect(count == 1)
    #expect(await ledger.entries == ["command save"])
  }

  @Test("a @MainActor closure given to Command runs on the main actor")
  func commandMainActorClosure() async throws {
    let command = Command<Void, Bool, Never> { @MainActor _ in
      MainActor.assertIsolated()
      return true
    }
    #expect(try await command.execute().first() == true)
  }
}
