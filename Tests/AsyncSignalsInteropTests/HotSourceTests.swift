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
