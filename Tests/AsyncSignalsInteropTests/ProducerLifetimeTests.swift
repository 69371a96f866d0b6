import AsyncSignals
import AsyncSignalsInterop
import Dispatch
import Foundation
import Testing

// A producer that starts when its loop is ready (`doSubscribed`) and stops when the loops it feeds have ended (the
// result of `await subject.send(_:)`), with no sentinel value and no kept `Task`.

/// A task executor over one serial queue: `settled()` returns once every job it was given so far has run, so that the
/// task it runs has suspended (or ended) by then.
private final class ProbeExecutor: TaskExecutor {
  let queue = DispatchQueue(label: "ProducerLifetimeTests.ProbeExecutor")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }

  func settled() async {
    await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
  }
}

@Suite("await subject.send(_:) tells its producer when the loops have ended; doSubscribed starts it")
struct ProducerLifetimeTests {
  @Test("a subject that has never had a bounded loop: .sent, with or without subscribers; then .terminated")
  func withoutLoops() async {
    let subject = Subject<Int, Never>()
    #expect(await subject.send(1) == .sent)
    let received = Locked<[Int]>([])
    subject.subscribeNext { value in received.withLock { $0.append(value) } }
    #expect(await subject.send(2) == .sent)
    // An unbounded loop never holds a send back: it does not count.
    for await _ in subject.doSubscribed({ subject.sendNext(9) }).values { break }
    #expect(await subject.send(3) == .sent)
    subject.sendCompleted()
    #expect(await subject.send(4) == .terminated)
    #expect(received.value == [2, 9, 3])
  }

  @Test("once its only bounded loop has ended, a send returns .loopsEnded and still reaches the other subscribers")
  func loopEnded() async {
    let subject = Subject<Int, Never>()
    let others = Locked<[Int]>([])
    subject.subscribeNext { value in others.withLock { $0.append(value) } }
    for await value in subject.doSubscribed({ subject.sendNext(0) }).values(bufferingPolicy: .bounded(4)) {
      #expect(value == 0)
      #expect(await subject.send(1) == .sent)  // the loop is reading
      break
    }
    #expect(await subject.send(2) == .loopsEnded)
    #expect(others.value == [0, 1, 2])
    // A new loop makes sends `.sent` again.
    for await value in subject.doSubscribed({ subject.sendNext(3) }).values(bufferingPolicy: .bounded(4)) {
      #expect(value == 3)
      #expect(await subject.send(4) == .sent)
      break
    }
    #expect(await subject.send(5) == .loopsEnded)
    subject.sendCompleted()
    #expect(await subject.send(6) == .terminated)
  }

  @Test("with two bounded loops, the send is .sent until both have ended")
  func twoLoops() async {
    let subject = Subject<Int, Never>()
    for await _ in subject.doSubscribed({ subject.sendNext(0) }).values(bufferingPolicy: .bounded(4)) {
      for await _ in subject.doSubscribed({ subject.sendNext(1) }).values(bufferingPolicy: .bounded(4)) {
        #expect(await subject.send(2) == .sent)
        break
      }
      #expect(await subject.send(3) == .sent)  // the outer loop still reads
      break
    }
    #expect(await subject.send(4) == .loopsEnded)
  }

  @Test("a replaying subject keeps what is sent after its loops have ended, and says they have")
  func replaySubject() async {
    let history = ReplaySubject<Int, Never>(capacity: 2)
    for await _ in history.doSubscribed({ history.sendNext(0) }).values(bufferingPolicy: .bounded(2)) { break }
    #expect(await history.send(1) == .loopsEnded)
    let replayed = Locked<[Int]>([])
    history.subscribeNext { value in replayed.withLock { $0.append(value) } }
    #expect(replayed.value == [0, 1])
  }

  @Test("a sender waiting for a full loop when the loop ends is resumed, and told that the loop has ended")
  func waitingSenderIsTold() async {
    let subject = Subject<Int, Never>()
    let executor = ProbeExecutor()
    let results = Locked<[SendResult]>([])
    let producer = Locked<Task<Void, Never>?>(nil)
    let fed = subject.doSubscribed {
      producer.value = Task(executorPreference: executor) {
        for value in 1...100 {
          let result = await subject.send(value)
          results.withLock { $0.append(result) }
          if result != .sent { return }
        }
      }
    }
    for await _ in fed.values(bufferingPolicy: .bounded(1)) {
      await executor.settled()  // the producer has filled the loop and waits in a send
      #expect(results.value.count < 100)
      #expect(results.value.allSatisfy { $0 == .sent })
      break
    }
    await producer.value?.value
    let final = results.value
    #expect(final.last == .loopsEnded)
    #expect(final.dropLast().allSatisfy { $0 == .sent })
  }

  @Test("the producer started once the loop is subscribed stops right after the loop breaks: no kept Task needed")
  func producerStopsWithItsLoop() async {
    let lines = Subject<Int, Never>()
    let sent = Locked(0)
    let finished = AsyncStream<Void>.makeStream()
    let fed = lines.doSubscribed {
      Task {
        for number in 1...1_000_000 {
          guard await lines.send(number) == .sent else { break }
          sent.withLock { $0 += 1 }
        }
        finished.continuation.finish()
      }
    }
    var read = 0
    for await line in fed.values(bufferingPolicy: .bounded(2)) {
      read = line
      if line == 500 { break }
    }
    for await _ in finished.stream {}  // the producer has returned
    #expect(read == 500)
    // The 500 lines read, the two the loop held, and one value per concurrent sender: nothing read on for nobody.
    #expect(sent.value <= 500 + 2 + 1)
  }

  @Test("doSubscribed runs once the loop's first next() has subscribed: nothing sent from its action is lost")
  func doSubscribedAtFirstNext() async {
    let subject = Subject<String, Never>()
    let started = Locked(0)
    let fed = subject.doSubscribed {
      started.withLock { $0 += 1 }
      subject.sendNext("ready")  // with initially, both would be sent before the loop is attached: it would see nil
      subject.sendCompleted()
    }
    let values = fed.values(bufferingPolicy: .bounded(4))
    #expect(started.value == 0)  // making the sequence, or its iterator, subscribes nothing
    var iterator = values.makeAsyncIterator()
    #expect(started.value == 0)
    #expect(await iterator.next() == "ready")
    #expect(started.value == 1)
    withExtendedLifetime(iterator) {}
  }

  @Test("doSubscribed carries a bounded loop's pause: a source that can pause stays within the bound")
  func doSubscribedCarriesThePause() async {
    let values = Signal<Int, Never>.from(0..<10_000).doSubscribed {}.values(bufferingPolicy: .bounded(8))
    var count = 0
    for await _ in values { count += 1 }
    #expect(count == 10_000)
    #expect(values.highWaterMark <= 8)
    #expect(values.overflowCount == 0)
  }

  @Test("share() ends a bounded loop's pause, as a subject does: the source runs at its own pace, counted")
  func shareEndsThePause() async {
    let values = Signal<Int, Never>.from(0..<1_000).share().values(bufferingPolicy: .bounded(8))
    var count = 0
    for await _ in values { count += 1 }
    #expect(count == 1_000)
    #expect(values.overflowCount > 0)
    #expect(values.highWaterMark > 8)
  }
}
