import AsyncSignals

/// The broken twin of `subscribeNext(isolatedTo:)`'s fair drain (`--sabotage ActorFlood`): isolated delivery as it
/// was before issue 20. The first event that finds the drain idle starts one job on the actor, which delivers what
/// is queued, in order, pass after pass, until the queue is empty, including what arrived while it ran. Under a
/// steady producer the queue never empties, so the job holds the actor until the producer stops and the backlog is
/// delivered; the actor's other work waits behind all of it.
enum GreedyDrain {
  static let description =
    "a drain that delivers until the queue is empty, including what arrives meanwhile (no budget: the old way)"

  /// Subscribes `next`, called in `actor`'s isolation.
  static func subscribeNext<A: Actor, Value: Sendable>(
    _ signal: Signal<Value, StressFailure>, isolatedTo actor: A, _ next: @escaping @Sendable (isolated A, Value) -> Void
  ) -> any Disposable {
    let drain = Drain(next)
    let upstream = signal.subscribeNext({ value in drain.received(value, on: actor) }, error: { _ in })
    return ActionDisposable {
      upstream.dispose()
      drain.end()
    }
  }

  private final class Drain<A: Actor, Value: Sendable>: Sendable {
    struct State {
      var queued: [Value] = []
      var scheduled = false
      var ended = false
    }

    let next: @Sendable (isolated A, Value) -> Void
    let state = LockedBox(State())

    init(_ next: @escaping @Sendable (isolated A, Value) -> Void) {
      self.next = next
    }

    func received(_ value: Value, on actor: A) {
      let start = state.withLock { state -> Bool in
        guard !state.ended else { return false }
        state.queued.append(value)
        guard !state.scheduled else { return false }
        state.scheduled = true
        return true
      }
      if start { Task(priority: .medium) { await self.drain(actor) } }
    }

    func drain(_ actor: isolated A) {
      while true {  // BUG: no budget; the job ends only when the queue is empty
        let batch = state.withLock { state -> [Value] in
          guard !state.ended, !state.queued.isEmpty else {
            state.scheduled = false
            return []
          }
          defer { state.queued = [] }
          return state.queued
        }
        if batch.isEmpty { return }
        for value in batch { next(actor, value) }
      }
    }

    func end() {
      state.withLock { state in
        state.ended = true
        state.queued = []
      }
    }
  }
}
