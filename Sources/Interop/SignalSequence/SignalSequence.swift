import AsyncSignals

/// A signal read with `for await`: an `AsyncSequence` whose `Failure` is the signal's own typed failure.
///
/// Create one with a signal's `values` or `values(bufferingPolicy:onDrop:)`. Each iterator is its own subscription (a
/// cold signal runs its work once per iterator), made when the iterator's first `next()` is called — not when the
/// sequence or the iterator is created. Values that arrive while the loop body runs wait in that iterator's own buffer
/// (see ``/AsyncSignals/SignalBufferingPolicy``), so several loops over one hot signal, such as a `Subject` or a
/// multicast connection's `signal` (or its `autoconnect()`), each receive every value, in order, at their own pace.
///
/// Termination: completion ends the loop after the buffered values; a failure is thrown, typed, after them.
/// For a `Never` failure the loop is a plain `for await`.
///
/// Cancellation: the subscription is disposed — the signal's cleanup runs and upstream sending stops —
/// when the consuming task is cancelled (at once while it waits for a value, otherwise at its next call to
/// `next()`), when the loop is left with `break`, `return` or a thrown error, or when the iterator is
/// dropped. A cancelled iteration ends like a completed one (the loop ends, nothing is thrown: the failure
/// type is the signal's, not `CancellationError`); check `Task.isCancelled` to tell them apart. Buffered
/// values are discarded on cancellation and are not counted as dropped.
///
/// ```swift
/// let temperatures: Signal<Double, SensorError> = sensor.readings
/// do throws(SensorError) {
///   for try await celsius in temperatures.values {
///     print(celsius)
///     if celsius > 100 { break }  // disposes the subscription
///   }
/// } catch {
///   print("sensor failed:", error.code)  // `error` is a `SensorError`
/// }
/// ```
///
/// - Note: ReactiveCocoa 2.5 has no pull side. Unlike peers' async bridges (Combine's `values`,
///   ReactiveSwift's and RxSwift's `AsyncThrowingStream`-based ones), the failure stays typed and dropped
///   values are counted.
public struct SignalSequence<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  @usableFromInline let signal: Signal<Element, Failure>
  @usableFromInline let onDrop: (@Sendable (Element) -> Void)?
  @usableFromInline let drops: DropCounter?
  @usableFromInline let overflows: DropCounter?
  @usableFromInline let highWaterMarks: HighWaterMarks?

  /// How each iterator buffers values that arrive while its consumer is busy.
  ///
  /// ```swift
  /// print(location.values.bufferingPolicy)                                       // unbounded
  /// print(location.values(bufferingPolicy: .bufferingNewest(1)).bufferingPolicy)  // bufferingNewest(1)
  /// ```
  public let bufferingPolicy: SignalBufferingPolicy

  init(signal: Signal<Element, Failure>, bufferingPolicy: SignalBufferingPolicy, onDrop: (@Sendable (Element) -> Void)?)
  {
    self.signal = signal
    self.bufferingPolicy = bufferingPolicy
    self.onDrop = onDrop
    // Only the dropping policies drop, and only `bounded` overflows and keeps a high-water mark; the others need no
    // counter.
    switch bufferingPolicy {
    case .unbounded:
      (drops, overflows, highWaterMarks) = (nil, nil, nil)
    case .bounded:
      (drops, overflows, highWaterMarks) = (nil, DropCounter(), HighWaterMarks())
    case .bufferingNewest, .bufferingOldest:
      (drops, overflows, highWaterMarks) = (DropCounter(), nil, nil)
    }
  }

  /// How many values the iterators of this sequence have dropped so far, all together; always `0` with the
  /// `unbounded` policy.
  ///
  /// ```swift
  /// let frames = camera.frames.values(bufferingPolicy: .bufferingNewest(2))
  /// for await frame in frames { await encode(frame) }
  /// print("dropped", frames.droppedCount, "frames")
  /// ```
  public var droppedCount: Int {
    drops?.value ?? 0
  }

  /// How many values the iterators of this sequence have buffered beyond a
  /// ``/AsyncSignals/SignalBufferingPolicy/bounded(_:)`` limit, all together, because their producer could not wait (it
  /// ran in a task, or on the consumer's own executor); always `0` with the other policies. Nothing was lost: the
  /// figure says how far past the bound memory went. What the stages of the chain hold by design though their sources
  /// paused (32 values per `deliver(on:)` hop, one per concurrent inner of bounded concurrency, less one) is their
  /// slack, not overflow: only what goes past the limit and that slack is counted. A loop takes the values past a full
  /// buffer in runs and says how far it is through a run only when it takes the next, so a value sent meanwhile may be
  /// counted though the loop had received part of the run: the figure can be higher than the values beyond the limit at
  /// any one moment, never lower (the Flow Control article).
  ///
  /// ```swift
  /// let records = parser.records.values(bufferingPolicy: .bounded(64))
  /// for await record in records { await database.insert(record) }
  /// print("buffered beyond the bound", records.overflowCount, "times")
  /// ```
  public var overflowCount: Int {
    overflows?.value ?? 0
  }

  /// The most values any iterator of this sequence has held at once, waiting for its loop, so far: how far the source
  /// ran ahead of the slowest moment of the loop. ``/AsyncSignals/SignalBufferingPolicy/bounded(_:)`` only; always `0`
  /// with the other policies.
  ///
  /// A value counts from the moment it is buffered until the loop receives it; a value handed to a loop that was
  /// already waiting for it never counts. With a source that can pause, the figure stays within the bound plus the
  /// slack of the chain's stages (32 values per `deliver(on:)` hop, one per concurrent inner of bounded concurrency,
  /// less one); what a sender that cannot pause puts beyond that shows here, and in ``overflowCount``. Read it during
  /// the loop or after it: an iterator's figure is kept when it ends. With several iterators (several loops over one
  /// sequence), the largest.
  ///
  /// ```swift
  /// let records = Signal<Int, Never>.from(1...10_000).map { "record \($0)" }.values(bufferingPolicy: .bounded(64))
  /// for await record in records { await archive(record) }
  /// print("the reader was at most", records.highWaterMark, "records ahead")  // 64 at most
  /// ```
  public var highWaterMark: Int {
    highWaterMarks?.value ?? 0
  }

  /// Creates an iterator. It subscribes to the signal at its first call to `next()`.
  ///
  /// ```swift
  /// var iterator = ticks.values.makeAsyncIterator()
  /// let first = await iterator.next()  // subscribes now
  /// ```
  ///
  /// - Returns: A new iterator, with a subscription and buffer of its own.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    // Inlined into the caller, so that `receive` runs specialised for the element type there.
    Iterator(
      storage: SignalSequenceStorage(
        signal: signal, policy: bufferingPolicy, onDrop: onDrop, drops: drops, overflows: overflows,
        receive: { storage, value in storage.receive(value) }),
      highWaterMarks: highWaterMarks)
  }

  /// The iterator of a ``SignalSequence``: one subscription to the signal and its buffer.
  ///
  /// Its first `next()` subscribes. Dropping the iterator (the last copy of it) disposes the subscription.
  /// An iterator serves one task: calling `next()` while another call on it is waiting stops the program.
  ///
  /// ```swift
  /// var iterator = clicks.values.makeAsyncIterator()
  /// let first = await iterator.next()  // subscribes, then waits for a click
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 has no equivalent; see ``SignalSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    /// The consumer's side of the subscription, shared by the iterator's copies; its deinitialiser ends the
    /// subscription.
    @usableFromInline
    final class Lifetime {
      @usableFromInline let storage: SignalSequenceStorage<Element, Failure>
      /// Values the consumer took from the shared buffer in one go (see `SignalSequenceStorage.next`), handed
      /// out by `next` without taking the lock. Not shared with the producer: only `next` touches it, and one
      /// task at a time calls `next` (the iterator is not `Sendable`). No dynamic exclusivity check: that rules out
      /// overlapping accesses already, and the check (`swift_beginAccess`, compiled into the caller's loop) cost 3.4%
      /// of a `for await` loop's samples (Benchmarks README, issue 29).
      @exclusivity(unchecked) @usableFromInline var batch = Ring<Element>()
      /// The task that called `next()` last, as recorded with the demand while it tracks its consumer: only `next`
      /// touches it.
      @exclusivity(unchecked) @usableFromInline var consumerTask = 0

      /// Where the sequence keeps its iterators' high-water marks (`.bounded` only): this one's storage is registered
      /// there while it lives, and retired as it ends.
      @usableFromInline let highWaterMarks: HighWaterMarks?

      @usableFromInline
      init(storage: SignalSequenceStorage<Element, Failure>, highWaterMarks: HighWaterMarks?) {
        self.storage = storage
        self.highWaterMarks = highWaterMarks
        highWaterMarks?.register(storage)
      }

      /// Whether the calling task is cancelled; a demand that tracks its consumer (a subject's `await send` holds it)
      /// first learns, in the same call to the runtime, which task calls: the one whose own sends never wait for it.
      @inlinable
      func isCancelledRecordingConsumer() -> Bool {
        guard storage.demand?.tracksConsumer == true else { return Task.isCancelled }
        return isCancelledRecordedConsumer()
      }

      /// `isCancelledRecordingConsumer()` for a demand that tracks its consumer, out of line: the loop's inlined path
      /// for every other demand is one load and `Task.isCancelled`, with no retain of the demand and no second call
      /// into the runtime (which together cost a bounded `Signal.async` loop about a fifth more per value).
      @inlinable @inline(never)
      func isCancelledRecordedConsumer() -> Bool {
        let (task, isCancelled) = Demand.currentTaskState
        if task != consumerTask, let demand = storage.demand {
          consumerTask = task
          demand.recordConsumer(task)
        }
        return isCancelled
      }

      deinit {
        storage.cancel()
        highWaterMarks?.retire(storage)  // after `cancel`: the buffer keeps nothing more, so its figure is final
      }
    }

    @usableFromInline let lifetime: Lifetime

    @usableFromInline
    init(storage: SignalSequenceStorage<Element, Failure>, highWaterMarks: HighWaterMarks? = nil) {
      lifetime = Lifetime(storage: storage, highWaterMarks: highWaterMarks)
    }

    /// How many values this iterator's buffer has dropped so far.
    ///
    /// ```swift
    /// var iterator = ticks.values(bufferingPolicy: .bufferingOldest(8)).makeAsyncIterator()
    /// _ = await iterator.next()
    /// print(iterator.droppedCount)
    /// ```
    public var droppedCount: Int {
      lifetime.storage.droppedCount
    }

    /// How many values this iterator has buffered beyond a ``/AsyncSignals/SignalBufferingPolicy/bounded(_:)`` limit
    /// because their producer cannot pause (a subject's `sendNext`, a `create` body, an operator that does not carry
    /// the pause): past the limit and the slack of the chain's stages (32 values per `deliver(on:)` hop), which a
    /// source that pauses may fill.
    ///
    /// ```swift
    /// var iterator = records.values(bufferingPolicy: .bounded(4)).makeAsyncIterator()
    /// _ = await iterator.next()
    /// print(iterator.overflowCount)
    /// ```
    public var overflowCount: Int {
      lifetime.storage.overflowCount
    }

    /// The most values this iterator has held at once, waiting for its loop, so far: how far its source ran ahead.
    /// ``/AsyncSignals/SignalBufferingPolicy/bounded(_:)`` only; always `0` with the other policies.
    ///
    /// Every value the iterator has buffered and not yet handed out counts, within its bound and beyond it; a value
    /// handed to a loop that was already waiting for it never counts. With a source that can pause, the figure stays
    /// within the bound plus the slack of the chain's stages (32 values per `deliver(on:)` hop); what a sender that
    /// cannot pause puts beyond that shows here and in ``overflowCount``. It is what the tests and `Stress` check the
    /// flow-control bound against.
    ///
    /// ```swift
    /// var iterator = Signal<Int, Never>.from(1...1_000).values(bufferingPolicy: .bounded(8)).makeAsyncIterator()
    /// while let value = await iterator.next() {
    ///   if value == 500 { print("at most", iterator.highWaterMark, "values waited") }  // 8 at most
    /// }
    /// ```
    public var highWaterMark: Int {
      lifetime.storage.highWaterMark
    }

    /// How many values this iterator holds and has not handed out yet, outside the lock: its private batch, and a
    /// `.bounded` iterator's ring. What the tests check the bound and its reopening against.
    package var heldCount: Int {
      lifetime.batch.count + (lifetime.storage.ring?.count ?? 0)
    }

    /// The next value, in the caller's isolation; `nil` once the signal has completed or iteration was
    /// cancelled.
    ///
    /// The first call subscribes. A value already buffered is returned at once; otherwise the caller
    /// suspends until one arrives. Cancelling the calling task ends the iteration and disposes the
    /// subscription.
    ///
    /// ```swift
    /// actor Thermostat {
    ///   var isHeating = false
    ///   func follow(_ readings: Signal<Double, Never>) async {
    ///     var iterator = readings.values.makeAsyncIterator()
    ///     while let reading = await iterator.next(isolation: self) { adjust(to: reading) }
    ///   }
    ///   func adjust(to celsius: Double) { isHeating = celsius < 19 }  // actor state, no `await`
    /// }
    /// ```
    ///
    /// - Parameter actor: The caller's actor, which the call does not leave (`for await` passes it).
    /// - Returns: The next value, or `nil` at the end.
    /// - Throws: The signal's failure, once, after the values sent before it.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      // Inlined into the caller, so that a value taken earlier, or one waiting in a `.bounded` ring, is handed out by
      // code specialised for its type, with no lock; a cancelled task goes to the storage, which ends the iteration
      // before any value. A batch holds values older than the ring's (see `SignalSequenceStorage.next`).
      if !lifetime.isCancelledRecordingConsumer() {
        if let element = lifetime.batch.popFirst() {
          // A `.bounded` loop's batch is what waited behind the lock, past its ring: taking it makes room too.
          if let ring = lifetime.storage.ring, ring.demandClosed {
            lifetime.storage.tookRoom(ring, batch: lifetime.batch.count)
          }
          return element
        }
        if let ring = lifetime.storage.ring, let element = lifetime.storage.take(from: ring) { return element }
      }
      return try await lifetime.storage.next(isolation: actor, batch: &lifetime.batch).get()
    }

    /// The next value; `nil` once the signal has completed or iteration was cancelled.
    ///
    /// The same as ``next(isolation:)`` called from a nonisolated context: it runs off the caller's actor,
    /// and so does the subscription its first call makes. `for await` and ``next(isolation:)`` stay on the
    /// caller's actor instead.
    ///
    /// ```swift
    /// var iterator = numbers.values.makeAsyncIterator()
    /// while let number = await iterator.next() { print(number) }
    /// ```
    ///
    /// - Returns: The next value, or `nil` at the end.
    /// - Throws: The signal's failure, once, after the values sent before it.
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: #isolation)
    }
  }
}

// An iterator serves one task at a time, as with `AsyncStream`'s iterator.
@available(*, unavailable)
extension SignalSequence.Iterator: Sendable {}
