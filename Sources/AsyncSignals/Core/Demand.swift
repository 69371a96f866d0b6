import Synchronization

// Flow control: how a bounded consumer's room reaches the sources that can pause.
//
// A consumer that bounds its buffer (`values(bufferingPolicy: .bounded(n))`) makes a `Demand` and attaches to its
// signal with an observer that carries it. Operators that send at most one value per value they receive, on the
// thread that sent it (`map`, `filter`, `take`, `scan`, `doNext`, …), build their upstream observer with the same
// demand; every other operator builds it without one, which ends the pause there (the sources above it run
// unpaused, and whatever reaches the full consumer is buffered and counted). A source the library drives
// (`Signal.from`, `MemoizedSequence.signal(on:)`) reads `hasRoom` before each value; finding none, it stops and
// registers a resumption: register, then re-check, so that room made in between is never missed. A producer in a
// task (`Subscriber.send(_:)`, `AsyncSequence.signal`) suspends until there is room instead.
//
// The invariant: flow control never blocks a thread. A paused source has returned from every call; a suspended
// producer has given its thread back to the pool; a foreign synchronous sender (a subject's `sendNext`, a
// `create` body) is never made to wait — its excess is buffered and counted. So flow control adds no wait to any
// lock, turn or executor, and cannot take part in a cycle that hangs. When the consumer ends (its loop is left,
// its task cancelled, or the signal terminates), every registered resumption runs at once.
//
// The consumer numbers each change of its demand: a change is applied only if its number is higher than the last
// one applied, so that the open flag follows the buffer's count in order even when a close decided on the
// producer's thread reaches the demand after a later reopening decided on the consumer's. So the consumer may open
// and close it after releasing its own lock; only the close that ends a loop is made under that lock, in the step
// that stops the buffer keeping values, so that no running source produces into a buffer that drops.

/// The room a bounded consumer has for more values, as the sources that can pause see it (see the comment above).
@usableFromInline
package final class Demand: Sendable {
  /// A resumption registered by a paused source or a suspended producer.
  @usableFromInline
  package typealias Resumption = @Sendable () -> Void

  @usableFromInline
  struct State: Sendable {
    var resumptions: [(id: UInt64, resume: Resumption)] = []
    var nextID: UInt64 = 0
    var ended = false
    /// The number of the last change applied by `close(generation:)` or `reopen(generation:)`.
    var generation: UInt64 = 0
  }

  /// Whether the consumer has room: written under `state`'s lock, read without it before each value.
  private let open = Atomic<Bool>(true)
  private let state = LockedState(State())  // guards the resumptions and `ended`

  @usableFromInline
  package init() {}

  /// Whether the consumer has room for another value (or has ended, when nothing more is buffered anyway).
  @usableFromInline
  package var hasRoom: Bool {
    open.load(ordering: .acquiring)
  }

  // MARK: Producers

  /// Registers `resumption` to run once the consumer has room again or has ended; `nil`, without registering, if
  /// it has room now — the caller goes on producing. The resumption runs once, on the thread that made the room.
  @usableFromInline
  package func resume(whenRoom resumption: @escaping Resumption) -> UInt64? {
    state.withLock { state -> UInt64? in
      guard !state.ended, !open.load(ordering: .relaxed) else { return nil }
      state.nextID += 1
      state.resumptions.append((state.nextID, resumption))
      return state.nextID
    }
  }

  /// Withdraws a registration; returns its resumption if it had not run yet (the caller may run it).
  @usableFromInline
  package func withdraw(_ id: UInt64) -> Resumption? {
    state.withLock { state -> Resumption? in
      guard let index = state.resumptions.firstIndex(where: { $0.id == id }) else { return nil }
      return state.resumptions.remove(at: index).resume
    }
  }

  /// Suspends the calling task until the consumer has room, has ended, or the task is cancelled.
  ///
  /// `nonisolated(nonsending)`: it runs in the caller's isolation, so a producer on the main actor (a bounded
  /// observation, say) that finds room returns without leaving the main actor, and one that waits resumes there.
  @usableFromInline
  nonisolated(nonsending) package func room() async {
    guard !hasRoom else { return }
    let registration = Atomic<UInt64>(0)  // 0: not registered (yet, or at all)
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        if let id = resume(whenRoom: { continuation.resume() }) {
          registration.store(id, ordering: .releasing)
          if Task.isCancelled, let resumption = withdraw(id) { resumption() }
        } else {
          continuation.resume()
        }
      }
    } onCancel: {
      let id = registration.load(ordering: .acquiring)
      if id != 0, let resumption = withdraw(id) { resumption() }
    }
  }

  // MARK: The consumer

  /// The consumer is full: producers that can pause stop before their next value. Ignored if a later change (a
  /// higher `generation`) has been applied already, or the consumer has ended.
  @usableFromInline
  package func close(generation: UInt64) {
    state.withLock { state in
      guard !state.ended, generation > state.generation else { return }
      state.generation = generation
      open.store(false, ordering: .releasing)
    }
  }

  /// The consumer has room again: returns the resumptions of the paused producers, for the caller to run. Ignored
  /// (nothing returned) if a later change has been applied already.
  @usableFromInline
  package func reopen(generation: UInt64) -> [Resumption] {
    state.withLock { state -> [Resumption] in
      guard generation > state.generation else { return [] }
      state.generation = generation
      open.store(true, ordering: .releasing)
      defer { state.resumptions = [] }
      return state.resumptions.map(\.resume)
    }
  }

  /// The consumer has ended: the demand stays open for good, and the resumptions are returned to run at once.
  @usableFromInline
  package func end() -> [Resumption] {
    state.withLock { state -> [Resumption] in
      state.ended = true
      open.store(true, ordering: .releasing)
      defer { state.resumptions = [] }
      return state.resumptions.map(\.resume)
    }
  }
}
