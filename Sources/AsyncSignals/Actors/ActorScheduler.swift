import Foundation

/// A scheduler whose blocks run in an actor's isolation, one at a time, in the order they were scheduled.
///
/// With it, any actor is a place where signal work runs: `deliver(on:)`, `subscribe(on:)`, and the time operators
/// (`throttle`, `delay`, `timeout`, `interval`) can target it. Blocks are queued, and one job on the actor runs
/// every block queued so far (no `Task` per block); ``Schedulers/current`` is this scheduler while a block runs.
/// `schedule(_:)` is always asynchronous, even when called on the actor, as RAC's queue schedulers are. Dated and
/// repeating blocks wait on a background timer, then join the same queue. Disposing a scheduled block before it
/// starts means it never runs.
///
/// The scheduler holds its actor strongly, so an actor must not store its own scheduler: the two would keep each
/// other alive. Make one where a chain needs it; the subscription holds it until it ends. A block runs with the
/// actor's isolation but is an ordinary `@Sendable` closure; to touch the actor's state with the compiler's
/// checks, deliver the events with ``Signal/subscribeNext(isolatedTo:_:error:completed:isolation:)`` instead, or call
/// `actor.assumeIsolated` inside the block, which this scheduler guarantees holds. An actor whose executor is a
/// ``QueueScheduler`` can use that scheduler directly: its blocks already run in the actor's isolation.
///
/// Blocks go through the engine of isolated delivery: one job runs at most 128 of them, then lets the actor's
/// other work run before it continues, so a flood of scheduled blocks cannot hold the actor.
///
/// ```swift
/// actor Indexer {
///   var indexed: [String] = []
///   func watch(_ edits: Signal<String, Never>) -> any Disposable {
///     // Made for this chain, not stored: the subscription holds the scheduler, and with it the indexer, until
///     // it is disposed.
///     edits.throttle(.milliseconds(300), on: ActorScheduler(self)).subscribeNext(isolatedTo: self) { indexer, text in
///       indexer.indexed.append(text)
///     }
///   }
/// }
/// ```
///
/// - Note: No counterpart in ReactiveCocoa 2.5, whose `RACQueueScheduler` plays this part for Dispatch queues.
public final class ActorScheduler<A: Actor>: Scheduler {
  /// A queued block, with the scheduler it runs as (``Schedulers/current`` while it runs).
  private typealias Block = (action: @Sendable () -> Void, cancellation: any Disposable, scheduler: ActorScheduler)

  /// The actor in whose isolation the blocks run.
  ///
  /// ```swift
  /// let scheduler = ActorScheduler(library)
  /// assert(scheduler.actor === library)
  /// ```
  public let actor: A
  private let blocks: IsolatedDelivery<A, Block, Never>

  /// Makes a scheduler that runs blocks isolated to `actor`, holding it strongly.
  ///
  /// ```swift
  /// let scheduler = ActorScheduler(library)
  /// results.deliver(on: scheduler).subscribeNext { print("in the library's isolation:", $0) }
  /// ```
  ///
  /// - Parameter actor: The actor whose isolation the blocks run in.
  public init(_ actor: A) {
    self.actor = actor
    blocks = IsolatedDelivery(
      reference: .strong(actor), executor: ActorExecutor(of: actor), mode: .alwaysAsynchronous
    ) { _, event in
      if case .next(let block) = event, !block.cancellation.isDisposed {
        block.scheduler.performAsCurrent(block.action)
      }
      return .proceed
    }
  }

  /// The wall-clock time.
  ///
  /// ```swift
  /// let inOneSecond = scheduler.now.addingTimeInterval(1)
  /// ```
  public var now: Date { Date() }

  /// Runs `action` in the actor's isolation after every block already scheduled; never before returning.
  ///
  /// ```swift
  /// let pending = scheduler.schedule { print("on the actor") }
  /// pending?.dispose()  // it never runs if it has not started
  /// ```
  ///
  /// - Parameter action: The work.
  /// - Returns: A disposable that cancels `action` if it has not started.
  /// - Note: ReactiveCocoa 2.5 `-schedule:`.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    let cancellation = ActionDisposable()
    enqueue(action, cancellation)
    return cancellation
  }

  /// Runs `action` in the actor's isolation at or after `date`, behind the blocks already queued by then.
  ///
  /// ```swift
  /// scheduler.schedule(after: scheduler.now.addingTimeInterval(2)) { print("two seconds later, on the actor") }
  /// ```
  ///
  /// - Parameters:
  ///   - date: The earliest time to run `action`.
  ///   - action: The work.
  /// - Returns: A disposable that cancels `action` if it has not started.
  /// - Note: ReactiveCocoa 2.5 `-after:schedule:`.
  @discardableResult
  public func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    onBackgroundTimer(action) { QueueScheduler.background.schedule(after: date, $0) }
  }

  /// Runs `action` in the actor's isolation once `delay` has passed, behind the blocks already queued by then.
  ///
  /// ```swift
  /// scheduler.schedule(afterDelay: .milliseconds(100)) { print("a tenth of a second later, on the actor") }
  /// ```
  ///
  /// - Parameters:
  ///   - delay: How long to wait; a negative delay counts as zero.
  ///   - action: The work.
  /// - Returns: A disposable that cancels `action` if it has not started.
  /// - Note: ReactiveCocoa 2.5 `-afterDelay:schedule:`.
  @discardableResult
  public func schedule(afterDelay delay: Duration, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    onBackgroundTimer(action) { QueueScheduler.background.schedule(afterDelay: delay, $0) }
  }

  /// Runs `action` in the actor's isolation at `date` and then every `interval`, until disposed.
  ///
  /// Each tick joins the actor's queue behind the blocks already there.
  ///
  /// ```swift
  /// let ticking = scheduler.schedule(after: scheduler.now, repeatingEvery: .seconds(1), leeway: .zero) {
  ///   print("tick, on the actor")
  /// }
  /// ticking?.dispose()
  /// ```
  ///
  /// - Parameters:
  ///   - date: The time of the first run.
  ///   - interval: The time between runs; must be positive.
  ///   - leeway: How late a run may be; must not be negative.
  ///   - action: The work.
  /// - Returns: A disposable that stops the repetition; a tick already queued does not run.
  /// - Note: ReactiveCocoa 2.5 `-after:repeatingEvery:withLeeway:schedule:`.
  @discardableResult
  public func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    precondition(interval > .zero, "ActorScheduler.schedule(after:repeatingEvery:leeway:_:): interval must be positive")
    precondition(leeway >= .zero, "ActorScheduler.schedule(after:repeatingEvery:leeway:_:): leeway must not be negative")
    return onBackgroundTimer(action) {
      QueueScheduler.background.schedule(after: date, repeatingEvery: interval, leeway: leeway, $0)
    }
  }

  /// Lets `schedule` time `action` on the background scheduler; each time it fires, `action` joins the actor's
  /// queue. The returned disposable cancels both the timer and a run already queued.
  private func onBackgroundTimer(
    _ action: @escaping @Sendable () -> Void,
    _ schedule: (_ fire: @escaping @Sendable () -> Void) -> (any Disposable)?
  ) -> any Disposable {
    let cancellation = SerialDisposable()
    cancellation.inner = schedule { [self] in enqueue(action, cancellation) }
    return cancellation
  }

  private func enqueue(_ action: @escaping @Sendable () -> Void, _ cancellation: any Disposable) {
    guard !cancellation.isDisposed else { return }
    _ = blocks.received(.next((action, cancellation, self)))
  }
}
