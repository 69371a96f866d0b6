/// What `zip` must do for each input. Pure: no locks, no callouts.
@usableFromInline
struct ZipStateMachine<Left: Sendable, Right: Sendable, Failure: Error>: OperatorState, Sendable {
  @usableFromInline
  typealias Output = (Left, Right)

  @usableFromInline
  var outbox: Outbox<Output, Failure>
  @usableFromInline
  var left = Ring<Left>()
  @usableFromInline
  var right = Ring<Right>()
  @usableFromInline
  var leftCompleted = false
  @usableFromInline
  var rightCompleted = false
  @usableFromInline
  var leftSubscription: (any Disposable)?
  @usableFromInline
  var rightSubscription: (any Disposable)?

  @inlinable
  init(_ observer: Observer<Output, Failure>) {
    outbox = Outbox(observer)
  }

  @usableFromInline
  var isFinished: Bool { outbox.isClosed }

  @inlinable
  mutating func receivedLeft(_ value: Left) -> Teardown<Output, Failure> {
    guard !isFinished else { return Teardown() }
    guard let partner = right.popFirst() else {
      left.append(value)
      return Teardown()
    }
    outbox.send(.next((value, partner)))
    return completeIfExhausted()
  }

  @inlinable
  mutating func receivedRight(_ value: Right) -> Teardown<Output, Failure> {
    guard !isFinished else { return Teardown() }
    guard let partner = left.popFirst() else {
      right.append(value)
      return Teardown()
    }
    outbox.send(.next((partner, value)))
    return completeIfExhausted()
  }

  @inlinable
  mutating func leftCompletedUpstream() -> Teardown<Output, Failure> {
    leftCompleted = true
    leftSubscription = nil
    return completeIfExhausted()
  }

  @inlinable
  mutating func rightCompletedUpstream() -> Teardown<Output, Failure> {
    rightCompleted = true
    rightSubscription = nil
    return completeIfExhausted()
  }

  @inlinable
  mutating func attachedLeft(_ disposable: any Disposable) -> Teardown<Output, Failure> {
    guard isFinished || leftCompleted else {
      leftSubscription = disposable
      return Teardown()
    }
    var teardown = Teardown<Output, Failure>()
    teardown.dispose(disposable)
    return teardown
  }

  @inlinable
  mutating func attachedRight(_ disposable: any Disposable) -> Teardown<Output, Failure> {
    guard isFinished || rightCompleted else {
      rightSubscription = disposable
      return Teardown()
    }
    var teardown = Teardown<Output, Failure>()
    teardown.dispose(disposable)
    return teardown
  }

  /// RAC's rule: complete once a side has completed and has nothing left waiting for a partner.
  @inlinable
  mutating func completeIfExhausted() -> Teardown<Output, Failure> {
    guard (leftCompleted && left.isEmpty) || (rightCompleted && right.isEmpty) else { return Teardown() }
    return finish(.completed)
  }

  @inlinable
  mutating func finish(_ event: Event<Output, Failure>) -> Teardown<Output, Failure> {
    guard !isFinished else { return Teardown() }
    outbox.send(event)
    return releaseUpstreams()
  }

  @inlinable
  mutating func stop() -> Teardown<Output, Failure> {
    var teardown = releaseUpstreams()
    teardown.observer = outbox.close()
    return teardown
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Output, Failure> {
    var teardown = Teardown<Output, Failure>()
    teardown.dispose(leftSubscription)
    teardown.dispose(rightSubscription)
    leftSubscription = nil
    rightSubscription = nil
    left.removeAll()
    right.removeAll()
    return teardown
  }
}
