import AsyncSignals
import AsyncSignalsInterop
import Dispatch
import Foundation
import Testing

/// `values(bufferingPolicy: .bounded(n))`: lossless, memory bounded by making a producer on a plain thread wait,
/// and never making a producer in a task, or on the consumer's executor, wait.
@Suite("values: the bounded policy")
struct BoundedBufferingTests {
  /// Starts a plain thread (no task, no scheduler) that runs `body`, and opens the returned gate when it is done.
  private func plainThread(_ body: @escaping @Sendable () -> Void) -> Gate {
    let done = Gate()
    Thread {
      body()
      done.open()
    }.start()
    return done
  }

  @Test("a producer on a plain thread waits while the buffer is full: nothing lost, never more than the bound")
  func plainThreadProducerWaits() async {
    let limit = 4
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(limit))
    var iterator = values.makeAsyncIterator()
    let taken = Locked(0)
    let aheadWhenSendReturned = Locked<[Int]>([])
    let subscribed = Gate()
    let producer = plainThread {
      while subject.subscriberCount == 0 {}
      subscribed.open()
      for value in 0..<1_000 {
        subject.sendNext(value)
        aheadWhenSendReturned.append(value + 1 - taken.value)
      }
      subject.sendCompleted()
    }
    var received: [Int] = []
    while let value = await iterator.next() {
      received.append(value)
      taken.increment()
      if received.count == 1 { await subscribed.wait() }
      for _ in 0..<3 { await Task.yield() }  // a slow consumer
    }
    await producer.wait()
    #expect(received == Array(0..<1_000))
    // A value resumed to the consumer is taken before the consumer counts it: one more may be in flight.
    #expect(aheadWhenSendReturned.value.allSatisfy { $0 <= limit + 1 })
    #expect(values.overflowCount == 0)
    #expect(values.droppedCount == 0)
  }

  @Test("a producer running in a task never waits: the buffer grows past the bound and counts the overflow")
  func taskProducerNeverWaits() async {
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(2))
    var iterator = values.makeAsyncIterator()
    let producer = Task {
      await Task.yield()
      for value in 1...100 { subject.sendNext(value) }  // must all return while the consumer takes nothing
      subject.sendCompleted()
    }
    let first = await iterator.next()  // subscribes; the producer hands 1 over, then buffers the rest
    await producer.value  // would never return if the producer waited for this consumer
    var received = [first]
    while let value = await iterator.next() { received.append(value) }
    #expect(received == Array(1...100))
    #expect(values.overflowCount == 100 - 1 - 2)
    #expect(iterator.overflowCount == 97)
  }

  @Test("a producer on the consumer's own executor never waits: a loop on the main actor, sent to on the main queue")
  @MainActor
  func consumerExecutorProducerNeverWaits() async {
    let subject = Subject<Int, Never>()
    let values = subject.values(bufferingPolicy: .bounded(1))
    var iterator = values.makeAsyncIterator()
    let sentAll = Gate()
    DispatchQueue.main.async {
      // Runs once the loop below has subscribed and suspended. The main queue is the consumer's executor:
      // waiting here would stop the consumer for good.
      for value in 1...10 { subject.sendNext(value) }
      subject.sendCompleted()
      sentAll.open()
    }
    let firstValue = await iterator.next(isolation: #isolation)  // as `for await` calls it: on the main actor
    await sentAll.wait()
    #expect(firstValue == 1)
    #expect(values.overflowCount == 10 - 1 - 1)
  }

  @Test("ending the loop wakes a producer waiting for room")
  func cancellationWakesProducer() async {
    let subject = Subject<Int, Never>()
    let subscribed = Gate()
    let producer = plainThread {
      while subject.subscriberCount == 0 {}
      subscribed.open()
      for value in 0..<100 { subject.sendNext(value) }  // blocks once the buffer of 1 is full
    }
    let consumer = Task {
      for await value in subject.values(bufferingPolicy: .bounded(1)) {
        await subscribed.wait()
        if value == 0 { break }  // leaving the loop disposes, and must wake the producer
      }
    }
    await consumer.value
    await producer.wait()  // would hang if the producer were left waiting
    #expect(subject.subscriberCount == 0)
  }
}
