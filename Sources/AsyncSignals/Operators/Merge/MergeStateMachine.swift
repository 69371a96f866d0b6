/// What `merge`, `flatten(maxConcurrent:)` and `concat` of a signal of signals must do for each input. Pure: no
/// locks, no callouts.
///
/// RAC's rules: inner signals arrive from the outer signal (or a collection); at most `limit` are subscribed at
/// once and the rest wait, in order, for a place. The values of the subscribed inners are merged as they
/// arrive; the result completes when the outer signal and every inner have completed, and fails with the
/// first failure.
///
/// Subscribing happens outside the lock and is trampolined: the thread that subscribes to an inner signal
/// (`Start`) keeps subscribing to the next one the rules allow until none is due, and while it does, no other
/// subscription is started elsewhere — a completion that frees a place only records it. So an inner signal
/// that completes synchronously during its own subscription does not subscribe to the next one from inside
/// that subscription: `concat` of 100 000 synchronous signals runs in constant stack depth (guarantee 7).
@usableFromInline
struct MergeStateMachine<Value: Sendable, Failure: Error>: OperatorState, Sendable {
  @usableFromInline
  typealias Output = Value

  /// The record of an inner subscription: it knows the storage, which its observer calls.
  @usableFromInline
  typealias Inner = InnerRecord<MergeStorage<Value, Failure>>

  /// An inner signal the caller must subscribe to, with the lock released, then report `attachedInner`.
  @usableFromInline
  struct Start: Sendable {
    @usableFromInline
    let signal: Signal<Value, Failure>
    @usableFromInline
    let inner: Inner

    @inlinable
    init(signal: Signal<Value, Failure>, inner: Inner) {
      self.signal = signal
      self.inner = inner
    }
  }

  @usableFromInline
  var outbox: Outbox<Value, Failure>
  @usableFromInline
  var outer: (any Disposable)?
  @usableFromInline
  var outerEnded = false
  /// The inner subscriptions, including the one being made, if any.
  @usableFromInline
  var inners = InnerSubscriptions()
  /// The inner signals waiting for a place, in arrival order.
  @usableFromInline
  var waiting = Ring<Signal<Value, Failure>>()
  @usableFromInline
  let limit: Int
  /// Whether a thread is subscribing to inner signals (it holds a `Start`).
  @usableFromInline
  var isStarting = false
  /// The stages of a bounded consumer's flow control, ended last when the operator tears down; `nil` otherwise.
  @usableFromInline
  var flowControl: MergeFlowControl?

  /// - Parameters:
  ///   - limit: The most inner signals subscribed at once; `Int.max` for no limit.
  ///   - flowControl: The flow control under a bounded consumer, if any.
  @inlinable
  init(limit: Int, observer: Observer<Value, Failure>, flowControl: MergeFlowControl? = nil) {
    self.limit = limit
    outbox = Outbox(observer)
    self.flowControl = flowControl
  }

  @inlinable
  mutating func attachedOuter(_ disposable: any Disposable) -> Teardown<Value, Failure> {
    .keep(disposable, in: &outer, unlessEnded: isFinished || outerEnded)
  }

  /// The outer signal sent an inner signal: it waits its turn, which may be now.
  @inlinable
  mutating func receivedInner(
    _ signal: Signal<Value, Failure>, _ newInner: () -> Inner
  ) -> (Teardown<Value, Failure>, Start?) {
    guard !isFinished else { return (Teardown(), nil) }
    waiting.append(signal)
    return (Teardown(), isStarting ? nil : nextStart(newInner))
  }

  @inlinable
  mutating func outerCompleted() -> Teardown<Value, Failure> {
    outerEnded = true
    outer = nil
    return completeIfDone()
  }

  /// The subscription to `inner` has been made: keep it, and go on with the next inner signal due, if any.
  ///
  /// Returns the subscription as `ended` when it is not kept (the inner signal ended during its `attach`, or the
  /// operator has finished): the caller disposes it once the lock is released. It is returned beside the
  /// teardown rather than in it because that is the usual case for synchronous inner signals (`concat` of
  /// arrays), and a teardown holding a disposable allocates an array.
  @inlinable
  mutating func attachedInner(
    _ inner: InnerSubscription, _ disposable: any Disposable, _ newInner: () -> Inner
  ) -> (Teardown<Value, Failure>, (start: Start?, ended: (any Disposable)?)) {
    let kept = inners.attached(inner, disposable)
    isStarting = false
    return (Teardown(), (nextStart(newInner), kept ? nil : disposable))
  }

  /// `inner` completed: its place goes to the next waiting signal, unless a subscribing thread will give it.
  @inlinable
  mutating func innerCompleted(
    _ inner: InnerSubscription, _ newInner: () -> Inner
  ) -> (Teardown<Value, Failure>, Start?) {
    inners.remove(inner)
    let teardown = completeIfDone()
    return (teardown, isStarting ? nil : nextStart(newInner))
  }

  /// Admits the first waiting signal if there is a place, making the caller the subscribing thread. `newInner`
  /// makes its subscription's record (one that knows the storage: see `Inner`).
  @inlinable
  mutating func nextStart(_ newInner: () -> Inner) -> Start? {
    guard !isFinished, inners.count < limit, let signal = waiting.popFirst() else { return nil }
    let inner = newInner()
    inners.insert(inner)
    isStarting = true
    return Start(signal: signal, inner: inner)
  }

  @inlinable
  mutating func completeIfDone() -> Teardown<Value, Failure> {
    guard outerEnded, inners.isEmpty, waiting.isEmpty else { return Teardown() }
    return finish(.completed)
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(outer)
    outer = nil
    outerEnded = true
    inners.removeAll(into: &teardown)
    waiting.removeAll()
    // Last: the stages end once the sources paused on them are disposed (see `MergeFlowControl`).
    teardown.dispose(flowControl)
    flowControl = nil
    return teardown
  }
}
