import Synchronization

/// The flow control of `merge`, `flatten(maxConcurrent:)` and `concat` under a bounded consumer (see `Demand`): two
/// stages between the sources and the consumer, each a composable demand whose parent is the consumer's.
///
/// - `inners`, the operator's concurrency: the outer signal's observer carries it. The operator takes a place when
///   the outer sends an inner signal and gives it back when that inner completes, so a source that can pause stops
///   sending inner signals while `maxConcurrent` are in hand (active, or waiting for a place), while a value is in
///   the operator's hands (its parent is `values`), and while the consumer is full. `nil` for `merge` and
///   `Signal.concat` of a collection, which have no outer signal.
/// - `values`, the operator's hand-off queue: the inner signals' observers carry it. Each value takes a place before
///   it is queued and gives it back once delivered, so that an inner that can pause stops while another inner's
///   value is in the operator's hands, as well as while the consumer is full. Without it the queue would not be
///   bounded: an inner that finds a delivery in progress on another thread queues its value and goes on (guarantee
///   1's hand-off); while the delivering thread is preempted, the consumer fills no further and so never closes its
///   demand, and the inner could queue its whole source. With it, at most one value per inner sending at that
///   instant is in hand: the overshoot past the consumer's bound is one value per inner sending from a thread of its
///   own, less one.
///
/// Both stages run their resumptions on the thread that makes the room (an inner completing, a delivery returning),
/// with no lock held; a paused source then resumes where it resumes for the consumer (`PausableWalk`). Disposing
/// ends both stages, after the operator has disposed its upstream subscriptions (last in the operator's teardown),
/// so that a paused source resumes only to find its subscription disposed, and the resumptions that hold it are
/// released (guarantee 8).
@usableFromInline
final class MergeFlowControl: Disposable {
  /// The room for more inner signals, carried by the outer signal's observer; `nil` without an outer signal.
  @usableFromInline let inners: Demand?
  /// The room for more values in the operator's hands, carried by each inner signal's observer.
  @usableFromInline let values: Demand
  private let ended = Atomic<Bool>(false)

  /// What the operator may put past the consumer's bound though its sources paused (see `Demand.slack`).
  private let slack: Int

  /// - Parameters:
  ///   - consumer: The bounded consumer's demand, the parent of both stages.
  ///   - maxConcurrent: The operator's limit for an outer signal's inners; `nil` without an outer signal.
  ///   - concurrent: How many inner signals may send at once: one value each may pass the consumer's bound, less one.
  @usableFromInline
  init(consumer: Demand, maxConcurrent: Int?, concurrent: Int) {
    let values = Demand(parent: consumer, limit: 1)
    self.values = values
    slack = Swift.max(concurrent - 1, 0)
    consumer.addSlack(slack)
    // Under `values`, not beside it: an inner that cannot pause (a `Signal.async` that returns its value) sends with
    // `sendNext` and completes at once, giving its place back while its value may still wait in the hand-off queue
    // (another thread delivering, preempted). Were the outer to look at the consumer alone, it would start inner
    // after inner then, and the queue would grow with nothing to close the consumer's demand.
    inners = maxConcurrent.map { Demand(parent: values, limit: $0) }
  }

  /// The observer the operator's outbox delivers to: `downstream`, then the value's place in `values` is given back
  /// (its resumptions run here, with no lock held: the outbox delivers with its lock released).
  @usableFromInline
  func delivering<Value, Failure>(to downstream: Observer<Value, Failure>) -> Observer<Value, Failure> {
    let values = values
    return Observer(
      raw: { kind, payload in
        let flow = downstream.raw(kind, payload)
        if kind == .next { values.release() }
        return flow
      }, demand: downstream.demand)
  }

  @usableFromInline
  var isDisposed: Bool { ended.load(ordering: .acquiring) }

  /// Ends both stages: they stay open for good, and the sources paused on them resume (to find their subscriptions
  /// disposed). Runs once.
  @usableFromInline
  func dispose() {
    guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
    values.addSlack(-slack)
    for resumption in inners?.end() ?? [] { resumption() }
    for resumption in values.end() { resumption() }
  }
}
