import AsyncSignals
import AsyncSignalsInterop
import Testing

// `highWaterMark`, public on `SignalSequence` and its iterator: how far a source ran ahead of its loop.

@Suite("SignalSequence.highWaterMark and Iterator.highWaterMark")
struct HighWaterMarkTests {
  @Test("a source that pauses keeps the iterator's high-water mark within the bound; the sequence reports it after")
  func withinTheBound() async {
    let values = Signal<Int, Never>.from(1...1_000).values(bufferingPolicy: .bounded(8))
    var iterator = values.makeAsyncIterator()
    var duringTheLoop = 0
    while let value = await iterator.next() {
      if value == 500 { duringTheLoop = iterator.highWaterMark }
    }
    #expect(duringTheLoop > 0 && duringTheLoop <= 8)
    #expect(iterator.highWaterMark <= 8)
    #expect(values.highWaterMark == iterator.highWaterMark)
  }

  @Test("what a sender that cannot pause puts beyond the bound shows in the high-water mark")
  func beyondTheBound() async {
    let subject = Subject<Int, Never>()
    let values = subject.doSubscribed {
      for value in 1...10 { subject.sendNext(value) }  // all at once, as the loop subscribes
      subject.sendCompleted()
    }.values(bufferingPolicy: .bounded(4))
    var received: [Int] = []
    for await value in values { received.append(value) }
    #expect(received == Array(1...10))
    #expect(values.highWaterMark == 10)
    #expect(values.overflowCount == 6)
  }

  @Test("with several iterators, the sequence reports the largest, live or ended")
  func largestOfSeveral() async {
    let runs = Locked(0)
    let signal = Signal<Int, Never>.create { subscriber in
      let run = runs.withLock { runs -> Int in
        runs += 1
        return runs
      }
      for value in 1...(run == 1 ? 3 : 5) { subscriber.sendNext(value) }  // sent as the loop subscribes
      subscriber.sendCompleted()
      return nil
    }
    let values = signal.values(bufferingPolicy: .bounded(16))
    var small = values.makeAsyncIterator()
    var large = values.makeAsyncIterator()
    #expect(values.highWaterMark == 0)  // nothing subscribed yet
    _ = await small.next()
    #expect(small.highWaterMark == 3 && values.highWaterMark == 3)
    _ = await large.next()
    #expect(large.highWaterMark == 5 && values.highWaterMark == 5)  // both live
    while await large.next() != nil {}
    withExtendedLifetime(large) {}
    #expect(values.highWaterMark == 5)
    while await small.next() != nil {}
    withExtendedLifetime(small) {}
    #expect(values.highWaterMark == 5)
  }

  @Test("an iterator's figure is kept by the sequence once the iterator has gone")
  func keptAfterTheIteratorEnds() async {
    let values = Signal<Int, Never>.from(1...3).values(bufferingPolicy: .bounded(16))
    for await _ in values { break }
    #expect(values.highWaterMark == 3)
  }

  @Test("0 for the policies that do not bound: unbounded, bufferingNewest and bufferingOldest")
  func otherPolicies() async {
    for policy in [SignalBufferingPolicy.unbounded, .bufferingNewest(2), .bufferingOldest(2)] {
      let subject = Subject<Int, Never>()
      let values = subject.doSubscribed {
        for value in 1...10 { subject.sendNext(value) }
        subject.sendCompleted()
      }.values(bufferingPolicy: policy)
      var iterator = values.makeAsyncIterator()
      while await iterator.next() != nil {}
      #expect(iterator.highWaterMark == 0)
      #expect(values.highWaterMark == 0)
    }
  }
}
