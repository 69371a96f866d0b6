import AsyncSignals
import AsyncSignalsInterop
import Dispatch
import Foundation
import Testing

// The samples of the Flow Control article's "Into an actor" (Interop.docc), line for line, and its promises about
// the main actor. The core module's FlowControlIntoActorTests holds the rest of the section's promises.

/// A temporary file of `lines` lines, `line 0` to `line <lines - 1>`, each ending in a newline.
private func temporaryLines(_ lines: Int) throws -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("into-an-actor-\(UUID()).log").path
  try (0..<lines).map { "line \($0)\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// A range that reports each read.
private struct ReportingRange: Sequence, Sendable {
  let range: Range<Int>
  let onRead: @Sendable () -> Void

  struct Iterator: IteratorProtocol {
    var base: Range<Int>.Iterator
    let onRead: @Sendable () -> Void
    mutating func next() -> Int? {
      guard let value = base.next() else { return nil }
      onRead()
      return value
    }
  }

  func makeIterator() -> Iterator { Iterator(base: range.makeIterator(), onRead: onRead) }
}

/// Runs `body` in a detached task and blocks the caller until it has returned: from the main actor, the main queue
/// runs nothing meanwhile.
private func inTaskBlocking<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
  let result = Locked<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    result.value = body()
    done.signal()
  }
  done.wait()
  return result.value!
}

// MARK: FlowControl.md (Interop.docc), "Into an actor"

extension InteropArticleExampleTests {
  @Test("FlowControl: an actor store loads a file through a bounded subscription: every record, no overflow")
  func flowControlRecordStore() async throws {
    let logPath = try temporaryLines(1_000)
    defer { try? FileManager.default.removeItem(atPath: logPath) }

    actor RecordStore {
      private(set) var records: [LogRecord] = []

      func load(_ lines: Signal<String, Never>) -> IsolatedSubscription {
        lines.map { LogRecord(parsing: $0) }
          .subscribeNext(isolatedTo: self, bufferingPolicy: .bounded(64)) { store, record in
            store.records.append(record)  // the store's own state: no await
          }
      }
    }

    let reader = QueueScheduler(name: "reader")  // the file is read here, never on the store's executor
    let store = RecordStore()
    let loading = await store.load(Signal<String, Never>.from(FileLines(path: logPath)).subscribe(on: reader))
    // Completed and delivered. Each look hops onto the store, behind the delivery jobs already queued there: it
    // waits for them rather than spinning.
    while !loading.isDisposed { _ = await store.records.count }
    #expect(await store.records.map(\.text) == (0..<1_000).map { "line \($0)" })
    #expect(loading.highWaterMark <= 64)
    #expect(loading.overflowCount == 0)
    #expect(loading.droppedCount == 0)
    #expect(loading.bufferingPolicy == .bounded(64))
  }

  @Test("FlowControl: a main-actor model bound with bufferingNewest(1) shows the latest speed and counts the rest")
  func flowControlSpeedModel() async {
    @MainActor final class SpeedModel {
      var speed = 0.0
      private var binding: IsolatedSubscription?

      func follow(_ speeds: Signal<Double, Never>) {
        // The latest speed at each turn of the main actor: at most one waits for it, however fast they come.
        binding = speeds.bind(onMainActorTo: self, keyPath: \.speed, bufferingPolicy: .bufferingNewest(1))
      }

      var skipped: Int { binding?.droppedCount ?? 0 }  // speeds the screen never showed
    }

    let model = SpeedModel()
    let speeds = Subject<Double, Never>()
    model.follow(speeds)
    speeds.sendNext(1)
    #expect(model.speed == 1)  // sent on the main queue with nothing waiting: set at once
    onPlainThread { for speed in 2...1_000 { speeds.sendNext(Double(speed)) } }  // the main actor is stalled
    #expect(model.skipped == 998)  // 2 to 999: each pushed out by the next
    #expect(model.speed == 1)
    await mainQueueTurn()
    #expect(model.speed == 1_000)
    speeds.sendCompleted()
  }

  @Test("FlowControl: subscribeNext(onMainActor:bufferingPolicy:) delivers later, even a value sent on the main queue")
  func flowControlMainActorFormIsAsynchronous() async {
    let seen = Locked<[Int]>([])
    let values = Subject<Int, Never>()
    let subscription = values.subscribeNext(onMainActor: { seen.append($0) }, bufferingPolicy: .bounded(4))
    values.sendNext(1)
    #expect(seen.value.isEmpty)
    await mainQueueTurn()
    #expect(seen.value == [1])
    subscription.dispose()
  }

  @Test("FlowControl: await send(_:) from the main actor into a full main-actor subscription waits, and goes on")
  func flowControlSendFromTheMainActor() async {
    let seen = Locked<[Int]>([])
    let values = Subject<Int, Never>()
    let subscription = values.subscribeNext(onMainActor: { seen.append($0) }, bufferingPolicy: .bounded(2))
    for value in 0..<50 { await values.send(value) }  // on the main actor, which the waiting send gives up
    while seen.value.count < 50 { await mainQueueTurn() }
    #expect(seen.value == Array(0..<50))
    #expect(subscription.overflowCount == 0)  // the sends waited for the room: 48 past it, had they not
    #expect(subscription.highWaterMark <= 2)
    subscription.dispose()
  }

  @Test("FlowControl: a Signal.from subscribed in a task, with no subscribe(on:), resumes on the main queue")
  func flowControlResumesOnTheMainQueue() async {
    let readOnMainQueue = Locked<[Bool]>([])
    let walk = ReportingRange(range: 0..<100) { readOnMainQueue.append(isOnMainQueue()) }
    let seen = Locked<[Int]>([])
    // The main queue is blocked while the walk runs in the task: it pauses once 8 values wait for the main actor.
    let subscription = inTaskBlocking {
      Signal<Int, Never>.from(walk).subscribeNext(onMainActor: { seen.append($0) }, bufferingPolicy: .bounded(8))
    }
    #expect(readOnMainQueue.value == Array(repeating: false, count: 8))
    while seen.value.count < 100 { await mainQueueTurn() }
    #expect(seen.value == Array(0..<100))
    #expect(readOnMainQueue.value == Array(repeating: false, count: 8) + Array(repeating: true, count: 92))
    #expect(subscription.highWaterMark <= 8)
  }

  @Test("FlowControl: with subscribe(on:), a source paused by the main actor reads on its queue, never the main one")
  func flowControlResumesOnItsQueue() async {
    let readOnMainQueue = Locked<Int>(0)
    let walk = ReportingRange(range: 0..<1_000) { if isOnMainQueue() { readOnMainQueue.increment() } }
    let seen = Locked<[Int]>([])
    let reader = QueueScheduler(name: "reader")
    let subscription = Signal<Int, Never>.from(walk).subscribe(on: reader)
      .subscribeNext(onMainActor: { seen.append($0) }, bufferingPolicy: .bounded(8))
    while seen.value.count < 1_000 { await mainQueueTurn() }
    #expect(seen.value == Array(0..<1_000))
    #expect(readOnMainQueue.value == 0)
    #expect(subscription.overflowCount == 0)
  }

  @Test("FlowControl: settle() delivers a bounded main-actor feed to its end, its paused source resumed by the job")
  func flowControlSettleDeliversABoundedFeed() async throws {
    let scheduler = TestScheduler()
    let seen = Locked<[Int]>([])
    let subscription = Signal<Int, Never>.from(1...200)
      .subscribe(on: scheduler)
      .subscribeNext(onMainActor: { seen.append($0) }, bufferingPolicy: .bounded(8))
    try await scheduler.settle()
    #expect(seen.value == Array(1...200))
    #expect(subscription.highWaterMark <= 8)  // the source paused
    #expect(subscription.isDisposed)
  }

  @Test("FlowControl: a main-actor form's limit of 0 stops the program with a precondition failure")
  func flowControlMainActorLimitMustBePositive() async {
    await #expect(processExitsWith: .failure) {
      _ = Signal<Int, Never>.never.subscribeNext(onMainActor: { _ in }, bufferingPolicy: .bufferingOldest(0))
    }
  }
}
