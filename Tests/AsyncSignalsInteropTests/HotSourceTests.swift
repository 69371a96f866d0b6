import AsyncSignals
import AsyncSignalsInterop
import Testing

// Hot sources read by several `for await` loops at once, each with its own buffer.
@Suite("Hot sources with for await")
struct HotSourceTests {
  @Test("1 000 concurrent consumers of one subject each receive every value in order")
  func thousandConsumers() async {
    let consumers = 1_000
    let subject = Subject<Int, Never>()
    // Counts the consumers' subscriptions to the subject, so that sending starts once all are in.
    let subscribed = Countdown(consumers)
    let counted = Signal<Int, Never>.create { subscriber in
      let subscription = subject.subscribe(subscriber)
      subscribed.arrive()
      return subscription
    }
    await withTaskGroup(of: [Int].self) { group in
      for _ in 0..<consumers {
        group.addTask {
          var received: [Int] = []
          for await value in counted.values { received.append(value) }
          return received
        }
      }
      await subscribed.wait()
      #expect(subject.subscriberCount == consumers)
      for value in 0..<100 { subject.sendNext(value) }
      subject.sendCompleted()
      var complete = 0
      for await received in group where received == Array(0..<100) { complete += 1 }
      #expect(complete == consumers)
    }
    #expect(subject.subscriberCount == 0)
  }

  @Test("two loops over a subject each receive every value, then the subject's typed failure")
  @MainActor
  func subjectDirectly() async {
    let subject = Subject<String, TestError>()
    @Sendable @MainActor func consume() async -> [String] {
      var received: [String] = []
      do {
        for try await value in subject.values { received.append(value) }
      } catch {
        received.append("failed \(error.code)")
      }
      return received
    }
    let first = Task { await consume() }
    let second = Task { await consume() }
    // Main-actor jobs and main-queue blocks run in the order they were enqueued: both loops have
    // subscribed (in their first next(), on the main actor) before this block runs.
    QueueScheduler.main.schedule {
      #expect(subject.subscriberCount == 2)
      subject.sendNext("a")
      subject.sendNext("b")
      subject.sendError(TestError(code: 3))
    }
    #expect(await first.value == ["a", "b", "failed 3"])
    #expect(await second.value == ["a", "b", "failed 3"])
    #expect(subject.subscriberCount == 0)
  }
}

/// Reads `signal` on the main actor, as strings, ending with "completed" or "failed <code>". Arrives at `ready`
/// just before the loop: the loop's first `next()` subscribes synchronously, before the task first suspends,
/// so once `ready` has opened for main-actor readers, all of them have subscribed.
@MainActor
func readAll(
  _ signal: Signal<Int, TestError>, ready: Countdown? = nil, pausingAt pause: (value: Int, until: Gate)? = nil
) async -> [String] {
  var received: [String] = []
  ready?.arrive()
  do {
    for try await value in signal.values {
      received.append("\(value)")
      if let pause, pause.value == value { await pause.until.wait() }  // values meanwhile wait in this buffer
    }
    received.append("completed")
  } catch {
    received.append("failed \(error.code)")
  }
  return received
}

// Multicast connections read with `for await`: no API of their own — `connection.signal.values` and
// `autoconnect().values` — each loop a subscription to the connection's subject, with its own buffer.
@Suite("Multicast connections with for await")
@MainActor
struct MulticastSequenceTests {
  @Test("several loops over publish()'s signal, connected once, each receive every value in order, at their own pace")
  func publishAndConnect() async {
    let upstream = Subject<Int, TestError>()
    let source = ProbedSignal(upstream)
    let connection = source.signal.publish()
    let ready = Countdown(3)
    let slow = Gate()
    let readers = [
      Task { await readAll(connection.signal, ready: ready, pausingAt: (1, slow)) },
      Task { await readAll(connection.signal, ready: ready) },
      Task { await readAll(connection.signal, ready: ready) },
    ]
    await ready.wait()
    #expect(source.subscriptions.value == 0)  // loops alone never subscribe to the source
    connection.connect()
    #expect(source.subscriptions.value == 1)
    await withCheckedContinuation { done in
      QueueScheduler(name: "sender").schedule {
        for value in 1...5 { upstream.sendNext(value) }
        upstream.sendError(TestError(code: 7))
        done.resume()
      }
    }
    let expected = ["1", "2", "3", "4", "5", "failed 7"]
    // The fast readers finish while the slow one still holds its values in its own buffer.
    #expect(await readers[1].value == expected)
    #expect(await readers[2].value == expected)
    slow.open()
    #expect(await readers[0].value == expected)
    #expect(source.subscriptions.value == 1)
    #expect(upstream.subscriberCount == 0)
  }

  @Test("autoconnect(): the first loop connects, others share it, the last loop to end disconnects for good")
  func autoconnectRefCount() async throws {
    let upstream = Subject<Int, TestError>()
    let source = ProbedSignal(upstream)
    let shared = source.signal.publish().autoconnect()
    #expect(source.subscriptions.value == 0)

    let ready = Countdown(2)
    let fourth = Gate()
    let breaking = Task { @MainActor in
      var received: [Int] = []
      ready.arrive()
      for try await value in shared.values {
        received.append(value)
        if value == 2 { break }
      }
      return received
    }
    let cancelled = Task { @MainActor in
      var received: [Int] = []
      ready.arrive()
      for try await value in shared.values {
        received.append(value)
        if value == 4 { fourth.open() }
      }
      return received
    }
    await ready.wait()
    #expect(source.subscriptions.value == 1)  // connected by the first loop, shared by the second

    for value in 1...4 { upstream.sendNext(value) }
    // The first loop leaves: one loop is left, the connection stays.
    #expect(try await breaking.value == [1, 2])
    #expect(source.disposals.value == 0)
    // The last loop ends (its task is cancelled): the connection is disposed.
    await fourth.wait()
    cancelled.cancel()
    #expect(try await cancelled.value == [1, 2, 3, 4])
    #expect(source.disposals.value == 1)
    #expect(upstream.subscriberCount == 0)

    // RAC's autoconnect never reconnects: a later loop attaches to the subject, the source stays unsubscribed.
    let lateReady = Countdown(1)
    let late = Task { await readAll(shared, ready: lateReady) }
    await lateReady.wait()
    #expect(source.subscriptions.value == 1)
    late.cancel()
    #expect(await late.value == ["completed"])  // a cancelled loop ends like a completed one
  }

  @Test("replay() and replayLast(): a late loop is replayed everything, or the latest value, then the live ones")
  func replayForLateReaders() async {
    let upstream = Subject<Int, TestError>()
    let everything = upstream.replay()
    let latest = upstream.replayLast()
    for value in 1...3 { upstream.sendNext(value) }

    let ready = Countdown(2)
    let readingEverything = Task { await readAll(everything, ready: ready) }
    let readingLatest = Task { await readAll(latest, ready: ready) }
    await ready.wait()
    upstream.sendNext(4)
    upstream.sendCompleted()
    #expect(await readingEverything.value == ["1", "2", "3", "4", "completed"])
    #expect(await readingLatest.value == ["3", "4", "completed"])

    // After the end, a loop is replayed the values kept, then the completion.
    #expect(await readAll(everything) == ["1", "2", "3", "4", "completed"])
    #expect(await readAll(latest) == ["4", "completed"])
  }

  @Test("100 concurrent loops over replay(), subscribing while values are sent, each receive every value in order")
  nonisolated func replayConcurrentReaders() async {
    let readers = 100
    let upstream = Subject<Int, Never>()
    let shared = upstream.replay()
    await withTaskGroup(of: [Int].self) { group in
      for _ in 0..<readers {
        group.addTask {
          var received: [Int] = []
          for await value in shared.values { received.append(value) }
          return received
        }
      }
      // Sent while the loops subscribe, on their own threads: each is replayed what it missed, once, in order.
      for value in 0..<100 { upstream.sendNext(value) }
      upstream.sendCompleted()
      var complete = 0
      for await received in group where received == Array(0..<100) { complete += 1 }
      #expect(complete == readers)
    }
  }
}
