/// What `combineLatest` must do for each input, at any arity. Pure: no locks, no callouts.
///
/// RAC's rules: nothing is sent until every input has sent a value; from then on, each value of any input
/// sends the latest value of every input. The result completes when every input has completed — even one
/// that completed without a value, in which case it sends nothing and waits for the others — and the first
/// failure fails it.
@usableFromInline
struct CombineLatestStateMachine<Buffers: InputBuffers, Failure: Error>: CombiningStateMachine {
  @usableFromInline
  typealias Output = Buffers.Output

  @usableFromInline
  var outbox: Outbox<Output, Failure>
  /// Each input's buffer holds its latest value, or nothing before its first.
  @usableFromInline
  var buffers: Buffers
  @usableFromInline
  var hasValue: [Bool]
  /// How many inputs have not sent a value yet.
  @usableFromInline
  var inputsWithoutValue: Int
  /// How many inputs have not completed.
  @usableFromInline
  var liveInputs: Int
  @usableFromInline
  var inputs: InputSubscriptions

  @inlinable
  init(buffers: Buffers, inputCount: Int, observer: Observer<Output, Failure>) {
    outbox = Outbox(observer)
    self.buffers = buffers
    hasValue = Array(repeating: false, count: inputCount)
    inputsWithoutValue = inputCount
    liveInputs = inputCount
    inputs = InputSubscriptions(count: inputCount)
  }

  @inlinable
  mutating func receivedValue(at index: Int, _ store: (inout Buffers) -> Void) -> Teardown<Output, Failure> {
    guard !isFinished else { return Teardown() }
    if hasValue[index] {
      buffers.removeFirst(at: index)
    } else {
      hasValue[index] = true
      inputsWithoutValue -= 1
    }
    store(&buffers)
    if inputsWithoutValue == 0 { outbox.send(.next(buffers.first())) }
    return Teardown()
  }

  @inlinable
  mutating func inputCompleted(at index: Int) -> Teardown<Output, Failure> {
    guard !isFinished, !inputs.isCompleted[index] else { return Teardown() }
    inputs.completed(at: index)
    liveInputs -= 1
    return liveInputs == 0 ? finish(.completed) : Teardown()
  }

  @inlinable
  mutating func attachedInput(at index: Int, _ disposable: any Disposable) -> Teardown<Output, Failure> {
    var teardown = Teardown<Output, Failure>()
    inputs.attached(at: index, disposable, isFinished: isFinished, into: &teardown)
    return teardown
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Output, Failure> {
    var teardown = Teardown<Output, Failure>()
    inputs.removeAll(into: &teardown)
    buffers.removeAll()
    for input in hasValue.indices { hasValue[input] = false }
    inputsWithoutValue = hasValue.count
    return teardown
  }
}
