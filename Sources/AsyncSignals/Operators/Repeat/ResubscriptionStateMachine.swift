/// What `repeat` and `retry` must do as their subscriptions to the source start and end. Pure: no locks, no
/// callouts.
///
/// The loop that subscribes is a trampoline (guarantee 7): a subscription that ends while it is still being
/// made — a synchronous source — only records that the next one is due, and the loop that is making it
/// subscribes again once `attach` has returned. A subscription that ends later, on its own, finds no loop
/// running and starts one. Either way one stack frame of the loop serves any number of resubscriptions.
@usableFromInline
struct ResubscriptionStateMachine: Sendable {
  /// When a subscription to the source ends in a way that calls for another one.
  @usableFromInline
  enum Policy: Sendable {
    /// `repeat`: after each completion. A failure ends the result.
    case repeatAfterCompletion
    /// `retry`: after a failure, at most `limit` times in all (`nil`: any number of times). Completion
    /// ends the result.
    case retryAfterFailure(limit: Int?)
  }

  /// What the loop does once `attach` has returned.
  @usableFromInline
  enum AfterAttach {
    /// Keep the subscription: it is live.
    case keep
    /// The subscription has ended and asked for the next one: subscribe again.
    case subscribeAgain
    /// The result has finished (disposed, or ended by its downstream): dispose the subscription.
    case dispose
  }

  /// What the source observer does with a terminal event of the source.
  @usableFromInline
  enum OnTerminal {
    /// Start the loop: no loop is running.
    case subscribeAgain
    /// Nothing: the running loop subscribes again, or the result has already finished.
    case none
    /// Forward the event downstream: the result has now finished.
    case forward
  }

  @usableFromInline
  var policy: Policy
  @usableFromInline
  var isFinished = false
  @usableFromInline
  var isAttaching = false
  @usableFromInline
  var resubscriptionDue = false
  @usableFromInline
  var current: (any Disposable)?

  @inlinable
  init(policy: Policy) {
    self.policy = policy
  }

  /// Before the loop subscribes to the source: whether it should.
  @inlinable
  mutating func willAttach() -> Bool {
    guard !isFinished else { return false }
    isAttaching = true
    return true
  }

  /// After `attach` has returned `subscription`: what to do with it.
  @inlinable
  mutating func didAttach(_ subscription: any Disposable) -> AfterAttach {
    isAttaching = false
    if isFinished { return .dispose }
    if resubscriptionDue {
      resubscriptionDue = false
      return .subscribeAgain
    }
    current = subscription
    return .keep
  }

  /// The source sent a terminal event. Returns what to do, and the ended subscription, to release once the
  /// lock is released (it disposes itself: the source observer answers `.stop`).
  @inlinable
  mutating func sourceTerminated(failed: Bool) -> (OnTerminal, released: (any Disposable)?) {
    guard !isFinished else { return (.none, nil) }
    let ended = current
    current = nil
    guard resubscribes(failed: failed) else {
      isFinished = true
      return (.forward, ended)
    }
    if isAttaching {
      resubscriptionDue = true
      return (.none, ended)
    }
    return (.subscribeAgain, ended)
  }

  /// The downstream answered `.stop`, or the result was disposed. Returns the live subscription, to dispose
  /// once the lock is released.
  @inlinable
  mutating func finish() -> (any Disposable)? {
    isFinished = true
    defer { current = nil }
    return current
  }

  /// Whether the policy calls for another subscription; counts a retry.
  @inlinable
  mutating func resubscribes(failed: Bool) -> Bool {
    switch policy {
    case .repeatAfterCompletion:
      return !failed
    case .retryAfterFailure(let limit):
      guard failed else { return false }
      guard let limit else { return true }
      guard limit > 0 else { return false }
      policy = .retryAfterFailure(limit: limit - 1)
      return true
    }
  }
}
