/// What `zip` must do for each input, at any arity. Pure: no locks, no callouts.
///
/// RAC's rules: the n-th values of all the inputs make the n-th output, each value is used once, and the
/// result completes as soon as an input has completed with nothing left waiting in its buffer (its values
/// can never all be paired). The first failure fails it.
@usableFromInline
struct ZipStateMachine<Buffers: InputBuffers, Failure: Error>: CombiningStateMachine {
  @usableFromInline
  typealias Output = Buffers.Output

  @usableFromInline
  var outbox: Outbox<Output, Failure>
  @usableFromInline
  var buffers: Buffers
  /// How many values wait in each input's buffer.
  @usableFromInline
  var waiting: [Int]
  /// How many inputs have an empty buffer: an output is due when none has.
  @usableFromInline
  var emptyInputs: Int
  @usableFromInline
  var inputs: InputSubscriptions

  @inlinable
  init(buffers: Buffers, inputCount: Int, observer: Observer<Output, Failure>) {
    outbox = Outbox(observer)
    self.buffers = buffers
    waiting = Array(repeating: 0, count: inputCount)
    emptyInputs = inputCount
    inputs = InputSubscriptions(count: inputCount)
  }

  @inlinable
  mutating func receivedValue(at index: Int, _ store: (inout Buffers) -> Void) -> Teardown<Output, Failure> {
    guard !isFinished else { return Teardown() }
    store(&buffers)
    waiting[index] += 1
    if waiting[index] == 1 { emptyInputs -= 1 }
    guard emptyInputs == 0 else { return Teardown() }
    for input in waiting.indices {
      waiting[input] -= 1
      if waiting[input] == 0 { emptyInputs += 1 }
    }
    outbox.send(.next(buffers.popFirst()))
    return completeIfExhausted()
  }

  @inlinable
  mutating func inputCompleted(at index: Int) -> Teardown<Output, Failure> {
    inputs.completed(at: index)
    return completeIfExhausted()
  }

  @inlinable
  mutating func attachedInput(at index: Int, _ disposable: any Disposable) -> Teardown<Output, Failure> {
    var teardown = Teardown<Output, Failure>()
    inputs.attached(at: index, disposable, isFinished: isFinished, into: &teardown)
    return teardown
  }

  /// RAC's rule: complete once an input has completed and has nothing left waiting for its partners.
  @inlinable
  mutating func completeIfExhausted() -> Teardown<Output, Failure> {
    for input in waiting.indices where inputs.isCompleted[input] && waiting[input] == 0 {
      return finish(.completed)
    }
    return Teardown()
  }

  @inlinable
  mutating func releaseUpstreams() -> Teardown<Output, Failure> {
    var teardown = Teardown<Output, Failure>()
    inputs.removeAll(into: &teardown)
    buffers.removeAll()
    for input in waiting.indices { waiting[input] = 0 }
    emptyInputs = waiting.count
    return teardown
  }
}
