import AsyncSignals
import AsyncSignalsInterop
import Testing

// AsyncSequence → Signal, and round trips through both bridges.
@Suite("AsyncSequence.signal")
struct AsyncSequenceSignalTests {
  @Test("a sequence's elements become values, then completion")
  func elementsThenCompletion() async {
    let sequence = ScriptedSequence<Int, Never>([1, 2, 3], then: .finish)
    #expect(await sequence.signal.toArray() == [1, 2, 3])
  }

  @Test("a sequence's typed error becomes the signal's typed failure")
  func typedFailure() async {
    let sequence = ScriptedSequence<Int, TestError>([1], then: .fail(TestError(code: 4)))
    let signal: Signal<Int, TestError> = sequence.signal
    let events = Locked<[Event<Int, TestError>]>([])
    await withCheckedContinuation { done in
      signal.subscribeNext(
        { events.append(.next($0)) },
        error: {
          events.append(.error($0))
          done.resume()
        },
        completed: { done.resume() })
    }
    #expect(events.value == [.next(1), .error(TestError(code: 4))])
  }

  @Test("each subscription iterates the sequence anew")
  func coldPerSubscription() async {
    let sequence = ScriptedSequence<Int, Never>([1, 2], then: .finish)
    #expect(await sequence.signal.toArray() == [1, 2])
    #expect(await sequence.signal.toArray() == [1, 2])
    #expect(sequence.probe.calls.value.count == 6)
  }

  @Test("disposing the subscription cancels the iterating task")
  func disposalCancels() async {
    let sequence = ScriptedSequence<Int, Never>([1], then: .waitForCancellation)
    let received = Locked<[Int]>([])
    let ended = Locked(false)
    let subscription = sequence.signal.subscribeNext({ received.append($0) }, completed: { ended.value = true })
    await sequence.probe.waiting.wait()
    subscription.dispose()
    await sequence.probe.cancelled.wait()
    #expect(received.value == [1])
    #expect(!ended.value)  // nothing is sent after disposal, not even the completion the sequence ends with
  }

  @Test("subscribing from the main actor does not run the iteration on the main actor or the main queue")
  @MainActor
  func iterationOffTheMainActor() async {
    let sequence = ScriptedSequence<Int, Never>([1, 2], then: .finish)
    let values = await sequence.signal.toArray()  // subscribes on the main actor
    #expect(values == [1, 2])
    // Each next() was called without an actor, outside every scheduler's block (so not on the main queue).
    #expect(sequence.probe.calls.value == [true, true, true])
  }

  // MARK: Round trips

  @Test("signal → values → signal keeps values and completion")
  func roundTripValues() async {
    let signal = Signal<Int, Never>.create { subscriber in
      for value in 1...5 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    #expect(await signal.values.signal.toArray() == [1, 2, 3, 4, 5])
  }

  @Test("signal → values → signal keeps the typed failure")
  func roundTripFailure() async {
    let signal = Signal<Int, TestError>.create { subscriber in
      subscriber.sendNext(1)
      subscriber.sendError(TestError(code: 5))
      return nil
    }
    let roundTrip: Signal<Int, TestError> = signal.values.signal
    var received: [Int] = []
    do {
      for try await value in roundTrip.values { received.append(value) }
      Issue.record("the loop should have thrown")
    } catch {
      #expect(error == TestError(code: 5))
    }
    #expect(received == [1])
  }

  @Test("sequence → signal → values keeps elements and the typed error")
  func roundTripFromSequence() async {
    let sequence = ScriptedSequence<String, TestError>(["a", "b"], then: .fail(TestError(code: 6)))
    var received: [String] = []
    do {
      for try await value in sequence.signal.values { received.append(value) }
      Issue.record("the loop should have thrown")
    } catch {
      #expect(error.code == 6)
    }
    #expect(received == ["a", "b"])
  }

  @Test("cancelling a loop over signal.values.signal disposes the original subscription")
  func roundTripCancellation() async {
    let subject = Subject<Int, Never>()
    let probe = ProbedSignal(subject)
    let received = Locked<[Int]>([])
    let gotFirst = Gate()
    let consumer = Task {
      for await value in probe.signal.values.signal.values {
        received.append(value)
        gotFirst.open()
      }
    }
    await probe.subscribed.wait()
    subject.sendNext(1)
    await gotFirst.wait()
    consumer.cancel()  // outer loop → its subscription → the bridging task → the inner loop's subscription
    await probe.disposed.wait()
    await consumer.value
    #expect(subject.subscriberCount == 0)
    #expect(received.value == [1])
  }

  @Test("cancelling a loop over sequence.signal.values cancels the task iterating the sequence")
  func sequenceRoundTripCancellation() async {
    let sequence = ScriptedSequence<Int, Never>([1, 2], then: .waitForCancellation)
    let gotBoth = Gate()
    let consumer = Task {
      var received: [Int] = []
      for await value in sequence.signal.values {
        received.append(value)
        if received.count == 2 { gotBoth.open() }
      }
      return received
    }
    await gotBoth.wait()
    await sequence.probe.waiting.wait()
    consumer.cancel()  // the loop's subscription → the bridging task, waiting in the sequence
    await sequence.probe.cancelled.wait()
    #expect(await consumer.value == [1, 2])
  }
}
