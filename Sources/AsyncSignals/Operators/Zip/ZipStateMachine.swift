/// What `zip` must do for each input. Pure: no locks, no callouts.
struct ZipStateMachine<Left: Sendable, Right: Sendable, Failure: Error>: OperatorState, Sendable {
  typealias Output = (Left, Right)

  var outbox: Outbox<Output, Failure>
  private var left = Ring<Left>()
  private var right = Ring<Right>()
  private var leftCompleted = false
  private var rightCompleted = false
  private var leftSubscription: (any Disposable)?
  private var rightSubscription: (any Disposable)?

  init(_ observer: @escaping Observer<Output, Failure>) {
    outbox = Outbox(observer)
  }

  var isFinished: Bool { outbox.isClosed }

  mutating func receivedLeft(_ value: Left) -> Teardown<Output, Failure> {
    guard !isFinished else { return Teardown() }
    guard let partner = right.popFirst() else {
      left.append(value)
      return Teardown()
    }
    outbox.send(.next((value, partner)))
    return completeIfExhausted()
  }

  mutating func receivedRight(_ value: Right) -> Teardown<Output, Failure> {
    guard !isFinished else { return Teardown() }
    guard let partner = left.popFirst() else {
      right.append(value)
      return Teardown()
    }
    outbox.send(.next((partner, value)))
    return completeIfExhausted()
  }

  mutating func leftCompletedUpstream() -> Teardown<Output, Failure> {
    leftCompleted = true
    leftSubscription = nil
    return completeIfExhausted()
  }

  mutating func rightCompletedUpstream() -> Teardown<Output, Failure> {
    rightCompleted = true
    rightSubscription = nil
    return completeIfExhausted()
  }

  mutating func attachedLeft(_ disposable: any Disposable) -> Teardown<Output, Failure> {
    guard isFinished || leftCompleted else {
      leftSubscription = disposable
      return Teardown()
    }
    var teardown = Teardown<Output, Failure>()
    teardown.dispose(disposable)
    return teardown
  }

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
  private mutating func completeIfExhausted() -> Teardown<Output, Failure> {
    guard (leftCompleted && left.isEmpty) || (rightCompleted && right.isEmpty) else { return Teardown() }
    return finish(.completed)
  }

  mutating func finish(_ event: Event<Output, Failure>) -> Teardown<Output, Failure> {
    guard !isFinished else { return Teardown() }
    outbox.send(event)
    return releaseUpstreams()
  }

  mutating func stop() -> Teardown<Output, Failure> {
    var teardown = releaseUpstreams()
    teardown.observer = outbox.close()
    return teardown
  }

  private mutating func releaseUpstreams() -> Teardown<Output, Failure> {
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
