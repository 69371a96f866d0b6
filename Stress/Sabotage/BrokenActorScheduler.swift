import AsyncSignals
import Foundation

/// The broken twin of `ActorScheduler` (`--sabotage ActorScheduler`), the scheduler a user writes by hand: each
/// block starts its own `Task` that hops onto the actor. The tasks are not ordered with each other (not FIFO), and
/// the block runs whether or not it was disposed meanwhile (cancellation is ignored).
final class BrokenActorScheduler<A: Actor>: Scheduler {
  static var description: String {
    "an actor scheduler that starts a Task per block (not FIFO) and ignores disposal once scheduled"
  }

  let actor: A
  /// The tasks not finished yet (the scenario waits for them before it checks).
  let inFlight: Tally

  init(_ actor: A, inFlight: Tally) {
    self.actor = actor
    self.inFlight = inFlight
  }

  var now: Date { Date() }

  func schedule(_ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    inFlight.increment()
    Task { [self] in  // BUG: a task per block, unordered; the disposable below is never consulted
      await Self.run(on: actor) { self.performAsCurrent(action) }
      inFlight.decrement()
    }
    return ActionDisposable {}
  }

  func schedule(after date: Date, _ action: @escaping @Sendable () -> Void) -> (any Disposable)? {
    schedule(action)
  }

  func schedule(
    after date: Date, repeatingEvery interval: Duration, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> (any Disposable)? {
    nil  // the scenario never repeats
  }

  private static func run(on actor: isolated A, _ body: () -> Void) {
    body()
  }
}
