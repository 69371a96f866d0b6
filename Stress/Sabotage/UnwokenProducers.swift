import AsyncSignals

/// The broken twin of flow control's release at the end of a loop (`--sabotage BoundedCancellation`): producers that
/// wait for room and are never woken when the loop ends.
///
/// The loop reads through `TwinBoundedBuffer` in its `forgetsDemandWhenCancelled` mode, which disposes the
/// subscription but never ends its demand, so a paused `Signal.from` walk is never resumed to find its subscription
/// gone; and the async producers (the `Signal.async` body, the `AsyncSequence.signal` pump) send through `room(_:)`,
/// which waits for the demand's room with no cancellation handler. A producer that is waiting when the loop ends
/// waits for good, and keeps everything it holds.
enum UnwokenProducers {
  static let description =
    "producers waiting for room are not woken when the loop ends: the buffer never ends its demand, and an async "
    + "producer's send ignores its task's cancellation"

  /// `Signal.async` with a body that sends through `send`: the twin of `await subscriber.send(_:)`.
  static func async(
    _ body: @escaping @Sendable (_ send: @escaping @Sendable (Int) async -> Void) async -> Void
  ) -> Signal<Int, StressFailure> {
    Signal.create(withDemand: { subscriber, demand in
      let task = Task.detached {
        await body { value in
          if let demand { await room(demand) }
          subscriber.sendNext(value)
        }
        subscriber.sendCompleted()
      }
      return ActionDisposable { task.cancel() }
    })
  }

  /// `AsyncSequence.signal`: pulls an element, waits for room, sends it; stops once its task is cancelled.
  static func signal<S: AsyncSequence & Sendable>(of sequence: S) -> Signal<Int, StressFailure>
  where S.Element == Int, S.Failure == Never {
    async { send in
      var iterator = sequence.makeAsyncIterator()
      while let element = await iterator.next(isolation: nil) {
        await send(element)
        if Task.isCancelled { return }
      }
    }
  }

  /// Suspends until the demand has room, registered with it.
  ///
  /// BUG: no cancellation handler, and the twin buffer never ends its demand: only room made by the consumer wakes
  /// it, and a consumer that has ended makes none.
  static func room(_ demand: Demand) async {
    guard !demand.hasRoom else { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      if demand.resume(whenRoom: { continuation.resume() }) == nil { continuation.resume() }
    }
  }
}
