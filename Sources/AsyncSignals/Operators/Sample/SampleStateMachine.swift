/// What `sample` must do for each input. Pure: no locks, no callouts.
///
/// RAC's rules: the source's latest value is kept; each value of the sampler sends it (again, if the source
/// has sent nothing new), and nothing before the source's first value. A terminal event of either side ends
/// the result.
@usableFromInline
struct SampleStateMachine<Value: Sendable, Failure: Error>: OperatorState, Sendable {
  @usableFromInline
  typealias Output = Value

  @usableFromInline
  var outbox: Outbox<Value, Failure>
  @usableFromInline
  var latest: Value?
  @usableFromInline
  var source: (any Disposable)?
  @usableFromInline
  var sampler: (any Disposable)?

  @inlinable
  init(_ observer: Observer<Value, Failure>) {
    outbox = Outbox(observer)
  }

  @inlinable
  mutating func attachedSource(_ disposable: any Disposable) -> Teardown<Value, Failure> {
    attached(disposable, as: \.source)
  }

  @inlinable
  mutating func attachedSampler(_ disposable: any Disposable) -> Teardown<Value, Failure> {
    attached(disposable, as: \.sampler)
  }

  @inlinable
  mutating func attached(
    _ disposable: any Disposable, as slot: WritableKeyPath<Self, (any Disposable)?>
  ) -> Teardown<Value, Failure> {
    .keep(disposable, in: &self[keyPath: slot], unlessEnded: isFinished)
  }

  @inlinable
  mutating func receivedValue(_ value: Value) {
    guard !isFinished else { return }
    latest = value
  }

  @inlinable
  mutating func receivedSample() {
    guard let latest else { return }
    outbox.send(.next(latest))
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Value, Failure> {
    var teardown = Teardown<Value, Failure>()
    teardown.dispose(sampler)
    teardown.dispose(source)
    sampler = nil
    source = nil
    latest = nil
    return teardown
  }
}
