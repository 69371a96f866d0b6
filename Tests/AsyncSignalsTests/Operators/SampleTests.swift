import Dispatch
import Testing

@testable import AsyncSignals

@MainActor
@Suite("sample(_:)")
struct SampleTests {
  @Test("each sampler value sends the latest source value, repeating it; nothing before the first (RAC's -sample:)")
  func samples() {
    let source = Subject<Int, TestError>()
    let sampler = Subject<Void, TestError>()
    let recorder = EventRecorder(source.sample(sampler))
    sampler.sendNext(())
    source.sendNext(1)
    source.sendNext(2)
    sampler.sendNext(())
    sampler.sendNext(())
    source.sendNext(3)
    sampler.sendNext(())
    #expect(recorder.values == [2, 2, 3])
  }

  @Test("the source is subscribed to before the sampler")
  func subscriptionOrder() {
    let log = Locked<[String]>([])
    let source = Signal<Int, Never>.create { _ in
      log.append("source")
      return nil
    }
    let sampler = Signal<Int, Never>.create { _ in
      log.append("sampler")
      return nil
    }
    _ = EventRecorder(source.sample(sampler))
    #expect(log.value == ["source", "sampler"])
  }

  @Test("the source's completion completes the result and disposes the sampler")
  func sourceCompletion() {
    let source = Subject<Int, TestError>()
    let sampler = Subject<Int, TestError>()
    let recorder = EventRecorder(source.sample(sampler))
    source.sendNext(1)
    source.sendCompleted()
    #expect(recorder.events == [.completed])
    #expect(sampler.subscriberCount == 0)
  }

  @Test("the sampler's completion or failure ends the result and disposes the source")
  func samplerTermination() {
    let source = Subject<Int, TestError>()
    let sampler = Subject<Int, TestError>()
    let recorder = EventRecorder(source.sample(sampler))
    sampler.sendCompleted()
    #expect(recorder.events == [.completed])
    #expect(source.subscriberCount == 0)

    let sourceTwo = Subject<Int, TestError>()
    let samplerTwo = Subject<Int, TestError>()
    let second = EventRecorder(sourceTwo.sample(samplerTwo))
    samplerTwo.sendError(TestError(code: 3))
    #expect(second.events == [.error(TestError(code: 3))])
    #expect(sourceTwo.subscriberCount == 0)
  }

  @Test("the source's failure fails the result")
  func sourceFailure() {
    let source = Subject<Int, TestError>()
    let sampler = Subject<Int, TestError>()
    let recorder = EventRecorder(source.sample(sampler))
    source.sendError(TestError(code: 1))
    #expect(recorder.events == [.error(TestError(code: 1))])
    #expect(sampler.subscriberCount == 0)
  }

  @Test("a source that ends while it is subscribed to: the sampler is never subscribed to")
  func sourceEndsAtOnce() {
    let sampler = Subject<Int, TestError>()
    let recorder = EventRecorder(Signal<Int, TestError>.values([1]).sample(sampler))
    #expect(recorder.events == [.completed])
    #expect(sampler.subscriberCount == 0)
  }

  @Test("disposing the result disposes both and releases the latest value and the callbacks (guarantee 8)")
  func disposal() {
    let tracker = LifetimeTracker()
    let source = Subject<Tracked, Never>()
    let sampler = Subject<Int, Never>()
    let disposable: any Disposable = {
      let captured = tracker.make()
      let disposable = source.sample(sampler).subscribeNext { _ in _ = captured }
      source.sendNext(tracker.make())
      return disposable
    }()
    #expect(tracker.liveCount == 2)
    disposable.dispose()
    #expect(tracker.liveCount == 0)
    #expect(source.subscriberCount == 0 && sampler.subscriberCount == 0)
  }

  @Test("a downstream that stops early disposes both")
  func downstreamStop() {
    let source = Subject<Int, Never>()
    let sampler = Subject<Int, Never>()
    let recorder = EventRecorder(source.sample(sampler).firstValues(1))
    source.sendNext(1)
    sampler.sendNext(0)
    #expect(recorder.events == [.next(1), .completed])
    #expect(source.subscriberCount == 0 && sampler.subscriberCount == 0)
  }

  @Test("a callback that samples again from inside a sample gets the second one after the first")
  func reentrantSample() {
    let source = Subject<Int, Never>()
    let sampler = Subject<Int, Never>()
    let log = Locked<[String]>([])
    source.sample(sampler).subscribeNext { value in
      log.append("start \(value)")
      if value == 1 {
        source.sendNext(2)
        sampler.sendNext(0)
      }
      log.append("end \(value)")
    }
    source.sendNext(1)
    sampler.sendNext(0)
    #expect(log.value == ["start 1", "end 1", "start 2", "end 2"])
  }

  @Test("two threads, one sending values and one sampling: samples never go back in time, never concurrently")
  nonisolated func twoThreads() async {
    let source = Subject<Int, Never>()
    let sampler = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let probe = OverlapProbe()
    source.sample(sampler).subscribeNext { value in
      probe.enter()
      received.append(value)
      probe.leave()
    }
    source.sendNext(-1)
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      for value in 0..<10_000 { (side == 0 ? source : sampler).sendNext(value) }
    }
    sampler.sendNext(0)
    let values = received.value
    #expect(values.count == 10_001)
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(values.last == 9_999)
    #expect(probe.overlaps == 0)
  }
}
