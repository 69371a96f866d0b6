/// `concat(_:)`'s signal: `first`'s values, then `second`'s. A class of its own rather than an `AnonymousSignal`: the
/// two signals are stored properties, not a closure's captures, so building one costs one allocation instead of two
/// (it counts where concatenations are built per value, or ten deep in a loop).
///
/// Subscribing flattens the chain a loop builds (`a.concat(b).concat(c)…`, nested through `first`) into one
/// subscription that goes through the signals in order, nested as RAC nests them (see `ConcatStateMachine`): events
/// pass through one operator instead of one per level, and the subscription costs one engine instead of one per
/// level.
@usableFromInline
final class ConcatSignal<Value: Sendable, Failure: Error>: Signal<Value, Failure>, @unchecked Sendable {
  // guarded by: immutability (`first`, `second` and `depth` are `let`s).
  @usableFromInline let first: Signal<Value, Failure>
  @usableFromInline let second: Signal<Value, Failure>
  /// How many concatenations are nested through `first`, this one included: the room the flattening takes.
  @usableFromInline let depth: Int

  @inlinable
  init(_ first: Signal<Value, Failure>, _ second: Signal<Value, Failure>) {
    self.first = first
    self.second = second
    depth = ((first as? ConcatSignal)?.depth ?? 0) + 1
    super.init(name: "")
  }

  override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    var pending: [ErasedSignal] = []
    pending.reserveCapacity(depth + 1)
    var node: Signal<Value, Failure> = self
    // An exact type check, not `as?`: no metadata lookup, and a named copy (`.named(_:)`) of a concatenation is an
    // `AnonymousSignal`, attached as any signal.
    while ObjectIdentifier(type(of: node)) == ObjectIdentifier(ConcatSignal.self) {
      let pair = unsafeDowncast(node, to: ConcatSignal.self)
      pending.append(pair.second)
      node = pair.first
    }
    pending.append(node)  // the first signal, subscribed first: the stack's top
    return ConcatStorage.attach(pending: pending, signals: [], trampolined: false, observer: observer)
  }
}
