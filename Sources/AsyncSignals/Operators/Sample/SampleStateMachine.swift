/// What `sample` must do for each input. Pure: no locks, no callouts.
///
/// RAC's rules: the source's latest value is kept; each value of the sampler sends it (again, if the source
/// has sent nothing new), and nothing before the source's first value. A terminal event of either side ends
/// the result.
struct SampleStateMachine<Value: Sendable, Failure: Error>: OperatorState, Sendable {
  typealias Output = Value

  var outbox: Outbox<Value, Failure>
  private var latest: Value?
  private var source: (any Disposable)?
  private var sampler: (any Disposable)?

  init(_ observer: Observer<Value, Failure>) {
    outbox = Outbox(observer)
  }

  private var isFinished: Bool { outbox.isClosed }

  mutating func attachedSource(_ disposable: any Disposable) -> Teardown<Value, Failure> {
    attached(disposable, as: \.source)
  }

  mutating func attachedSampler(_ disposable: any Disposable) -> Teardown<Value, Failure> {
    attached(disposable, as: \.sampler)
  }

  private mutating func attached(
    _ disposable: any Disposable, as slot: WritableKeyPath<Self, (any Disposable)?>
  ) -> Teardown<Value, Failure> {
    guard isFinished else {
      self[keyPath: slot] = disposable
      return Teardown()
    }
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(disposable)
    return teardown
  }

  mutating func receivedValue(_ value: Value) {
    guard !isFinished else { return }
    latest = value
  }

  mutating func receivedSample() {
    guard let latest else { return }
    outbox.send(.next(latest))
  }

  /// Queues the terminal event (from either side) and tears everything down.
  mutating func finish(_ event: Event<Value, Failure>) -> Teardown<Value, Failure> {
    guard !isFinished else { return Teardown() }
    outbox.send(event)
    return releaseUpstreams()
  }

  mutating func stop() -> Teardown<Value, Failure> {
    var teardown = releaseUpstreams()
    teardown.observer = outbox.close()
    return teardown
  }

  private mutating func releaseUpstreams() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(sampler)
    teardown.dispose(source)
    sampler = nil
    source = nil
    latest = nil
    return teardown
  }
}
