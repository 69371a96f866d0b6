import AsyncSignals

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// A cold signal that iterates this sequence once per subscription, sending each element, then
  /// completing; a thrown error becomes the signal's failure, typed.
  ///
  /// Each subscription iterates in a new detached task (`Task.detached`): on the global concurrent
  /// executor, never on the subscriber's actor — subscribing from the main actor does not run the iteration
  /// there — and without the subscriber's priority or task-local values. Elements are sent from that task's
  /// thread, one at a time; the task waits while the subscriber handles each one. Disposing the
  /// subscription cancels the task: the iteration stops before the next element is requested, and a
  /// cancellation-aware sequence stops waiting at once. Nothing is sent after disposal.
  ///
  /// ```swift
  /// let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
  /// let numbers: Signal<Int, Never> = stream.signal  // AsyncStream cannot fail, so neither can the signal
  /// let subscription = numbers.subscribeNext { print($0) }
  /// continuation.yield(1)  // prints 1, from the iterating task
  /// subscription.dispose()  // cancels the iterating task
  /// ```
  ///
  /// Cold means each subscription calls `makeAsyncIterator()` anew: a sequence that allows only one
  /// iteration at a time, such as `AsyncStream`, allows only one subscription at a time (share it with a
  /// `Subject` otherwise).
  ///
  /// A round trip keeps values, the typed failure and cancellation: `signal.values.signal` behaves as
  /// `signal`, and cancelling a loop over `sequence.signal.values` cancels the task iterating `sequence`.
  ///
  /// - Note: ReactiveCocoa 2.5 `RACSequence.signal` for an async sequence. Unlike peers' bridges, the typed
  ///   failure is kept and the iteration never runs on, or blocks, the subscriber's actor.
  public var signal: Signal<Element, Failure> {
    Signal.detachedTask(tracked: false) { subscriber in await pump(into: subscriber, isolation: nil) }
  }

  /// A cold signal that iterates this sequence in `actor`'s isolation once per subscription, sending each
  /// element, then completing; a thrown error becomes the signal's failure, typed.
  ///
  /// As `signal`, but each subscription's task hops onto `actor` and iterates there: the sequence's
  /// `next(isolation:)` is called with `actor` as its isolation, so a sequence that calls back into the actor
  /// (or one built by the actor) needs no extra hop, and elements are sent from the actor's executor. Each `await`
  /// for the next element lets other work of the actor run. The signal, and each subscription's task while it
  /// runs, hold `actor` strongly. Disposing the subscription cancels the task.
  ///
  /// ```swift
  /// actor Sensor {
  ///   let readings: AsyncStream<Double>
  ///   init(readings: AsyncStream<Double>) { self.readings = readings }
  ///   var signal: Signal<Double, Never> { readings.signal(isolatedTo: self) }
  /// }
  /// ```
  ///
  /// - Parameter actor: The actor whose isolation the iteration runs in.
  /// - Returns: A cold signal of the sequence's elements.
  /// - Note: ReactiveCocoa 2.5 `RACSequence.signal` (`-signalWithScheduler:`), with an actor in place of the
  ///   scheduler.
  public func signal<A: Actor>(isolatedTo actor: A) -> Signal<Element, Failure> {
    Signal.detachedTask(tracked: false) { subscriber in await pump(into: subscriber, isolation: actor) }
  }

  /// Iterates the sequence in `isolation`, sending each element to `subscriber`, then its end.
  private func pump(into subscriber: AsyncSubscriber<Element, Failure>, isolation: isolated (any Actor)?) async {
    var iterator = makeAsyncIterator()
    do throws(Failure) {
      while let element = try await iterator.next(isolation: isolation) {
        await subscriber.send(element)  // under a bounded consumer, waits for room before pulling more
        // Disposed meanwhile: stop pulling even if the sequence ignores cancellation.
        if Task.isCancelled { return }
      }
      subscriber.sendCompleted()
    } catch {
      subscriber.sendError(error)
    }
  }
}
