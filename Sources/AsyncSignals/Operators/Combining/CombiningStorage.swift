// The engine shared by `zip` and `combineLatest`, at every arity.
//
// Both operators subscribe to N inputs, store each input's values in a typed buffer (`InputBuffers`), and turn
// one value of every input into an output; they differ only in their rules (zip uses each value once and
// completes when an input is exhausted; combineLatest reuses the latest values and completes when every input
// has), which live in their pure state machines (`ZipStateMachine`, `CombineLatestStateMachine`). This file
// holds what the rules share: the subscriptions of the inputs, and the storage that owns the lock and performs
// every subscribe and dispose with it released.

/// The rules of an operator over N inputs whose values wait in ``InputBuffers``. Pure: no locks, no callouts.
@usableFromInline
protocol CombiningStateMachine: OperatorState, Sendable {
  associatedtype Buffers: InputBuffers where Buffers.Output == Output

  @inlinable
  init(buffers: Buffers, inputCount: Int, observer: Observer<Output, Failure>)

  /// Input `index` sent a value; `store` appends it to that input's buffer, if the rules want it kept.
  @inlinable
  mutating func receivedValue(at index: Int, _ store: (inout Buffers) -> Void) -> Teardown<Output, Failure>

  /// Input `index` completed.
  @inlinable
  mutating func inputCompleted(at index: Int) -> Teardown<Output, Failure>

  /// The subscription to input `index` has been made.
  @inlinable
  mutating func attachedInput(at index: Int, _ disposable: any Disposable) -> Teardown<Output, Failure>
}

/// The subscriptions of N inputs, and which of them have completed. Part of a state machine's state.
@usableFromInline
struct InputSubscriptions: Sendable {
  @usableFromInline
  var disposables: [(any Disposable)?]
  /// Whether each input has completed.
  @usableFromInline
  var isCompleted: [Bool]

  @inlinable
  init(count: Int) {
    disposables = Array(repeating: nil, count: count)
    isCompleted = Array(repeating: false, count: count)
  }

  /// Keeps the subscription to input `index`, unless that input or the whole operator has already ended: then
  /// it goes into `teardown`.
  @inlinable
  mutating func attached<Output, Failure>(
    at index: Int, _ disposable: any Disposable, isFinished: Bool, into teardown: inout Teardown<Output, Failure>
  ) {
    if isFinished || isCompleted[index] {
      teardown.dispose(disposable)
    } else {
      disposables[index] = disposable
    }
  }

  /// Records the completion of input `index`; its subscription has ended by itself.
  @inlinable
  mutating func completed(at index: Int) {
    isCompleted[index] = true
    disposables[index] = nil
  }

  /// Moves every live subscription into `teardown`.
  @inlinable
  mutating func removeAll<Output, Failure>(into teardown: inout Teardown<Output, Failure>) {
    for index in disposables.indices {
      teardown.dispose(disposables[index])
      disposables[index] = nil
    }
  }
}

/// Owns the lock of a `zip` or `combineLatest` subscription and performs every effect with it released.
@usableFromInline
final class CombiningStorage<Machine: CombiningStateMachine>: Disposable {
  @usableFromInline
  let state: LockedState<Machine>  // guards all mutable state of the operator, input buffers included

  @inlinable
  init(_ machine: Machine) {
    state = LockedState(machine, spinning: true)  // each input may send from a thread of its own
  }

  @usableFromInline
  var isDisposed: Bool { state.isClosed }

  @inlinable
  func dispose() {
    state.handle { $0.stop() }
  }

  /// Subscribes to input `index`, whose values `store` appends to its buffer (called under the lock).
  ///
  /// - Returns: Whether the operator is still open; once it is not, the caller subscribes to no more inputs.
  @inlinable
  func attachInput<Value>(
    at index: Int, _ signal: Signal<Value, Machine.Failure>,
    store: @escaping @Sendable (inout Machine.Buffers, Value) -> Void
  ) -> Bool {
    // `Observer(raw:)` capturing what it needs directly: one closure context, where `attach { … }` makes two.
    let subscription = signal.attach(
      Observer(raw: { kind, payload in
        switch kind {
        case .next:
          let value = payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee
          return self.state.handle { $0.receivedValue(at: index) { store(&$0, value) } }
        case .error:
          let error = payload.unsafelyUnwrapped.assumingMemoryBound(to: Machine.Failure.self).pointee
          return self.state.handle { $0.finish(.error(error)) }
        case .completed:
          return self.state.handle { $0.inputCompleted(at: index) }
        }
      }))
    return state.handle { $0.attachedInput(at: index, subscription) } == .proceed
  }

  /// Subscribes the operator `Machine` to two inputs, in order, stopping early if it ends meanwhile: what the
  /// pairwise operators (and, folded, their wider arities) use.
  @inlinable
  static func attach<First, Second>(
    _ first: Signal<First, Machine.Failure>, _ second: Signal<Second, Machine.Failure>,
    observer: Observer<(First, Second), Machine.Failure>
  ) -> any Disposable where Machine.Buffers == PairBuffers<First, Second> {
    let storage = CombiningStorage(Machine(buffers: PairBuffers(), inputCount: 2, observer: observer))
    if storage.attachInput(at: 0, first, store: { $0.left.append($1) }) {
      _ = storage.attachInput(at: 1, second, store: { $0.right.append($1) })
    }
    return storage
  }

  /// Subscribes the operator `Machine` to a collection of inputs of one type, in order, stopping early if it
  /// ends meanwhile.
  @inlinable
  static func attach<Element>(
    _ signals: [Signal<Element, Machine.Failure>], observer: Observer<[Element], Machine.Failure>
  ) -> any Disposable where Machine.Buffers == ArrayBuffers<Element> {
    let machine = Machine(buffers: ArrayBuffers(count: signals.count), inputCount: signals.count, observer: observer)
    let storage = CombiningStorage(machine)
    for (index, signal) in signals.enumerated() {
      guard storage.attachInput(at: index, signal, store: { $0.append($1, at: index) }) else { break }
    }
    return storage
  }
}
