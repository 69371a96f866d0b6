/// A cold stream of values that ends with at most one failure or completion.
///
/// A signal does nothing until it is subscribed to. Each subscription runs the signal's work anew (guarantee
/// 4), receives its events one at a time (guarantee 1), and ends with the first `error` or `completed`, or
/// when its disposable is disposed (guarantee 2); its resources are then released (guarantee 8). Hot sharing
/// is explicit: subjects and multicast connections.
///
/// ```swift
/// let numbers = Signal<Int, Never>.create { subscriber in
///   subscriber.sendNext(1)
///   subscriber.sendNext(2)
///   subscriber.sendCompleted()
///   return ActionDisposable { print("cleaned up") }
/// }
/// numbers.map { $0 * 10 }.subscribeNext { print($0) }  // 10, 20, cleaned up
/// ```
///
/// `Value` must be `Sendable`: events may be delivered on any thread. `Failure` is the typed error the
/// signal can fail with; use `Never` for a signal that cannot fail.
///
/// - Note: ReactiveCocoa 2.5 `RACSignal` (and the `RACStream` operations it inherits).
public class Signal<Value: Sendable, Failure: Error>: @unchecked Sendable, CustomStringConvertible {
  // guarded by: immutability. The base class stores only `nameSource`, a `let`; its subclasses are final and
  // either store only `let`s or guard their state with `LockedState` (subjects).

  /// Where the debugging name comes from; resolved only when ``name`` is read.
  @usableFromInline
  let nameSource: SignalName

  /// The signal's debugging name.
  ///
  /// The name given with ``named(_:)``; otherwise, when the `RAC_DEBUG_SIGNAL_NAMES` environment variable is
  /// set, a name that the operator which made the signal derives from its upstream's, such as
  /// `[clicks] take(3)`; otherwise empty. Derived names are built when they are read, never while events flow.
  ///
  /// ```swift
  /// print(clicks.named("clicks").name)  // clicks
  /// ```
  public var name: String {
    nameSource.resolved
  }

  @usableFromInline
  init(name: String) {
    nameSource = name.isEmpty ? .none : .given(name)
  }

  @usableFromInline
  init(nameSource: SignalName) {
    self.nameSource = nameSource
  }

  /// Attaches `observer` and returns the subscription's disposable. Subclasses override it; every
  /// implementation upholds the observer contract in `Observer.swift`.
  @usableFromInline
  func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    preconditionFailure("Signal.attach(_:) must be overridden by \(type(of: self))")
  }

  /// Whether the signal attaches a subscriber's closures boxed by the caller (`attach(boxed:)`): a subject's and a
  /// `create` body's signal, whose subscriptions deliver from a sink that can keep the box as its observer. Every
  /// other signal answers `false`, and `subscribeNext` attaches an `Observer` as before, so an operator chain pays
  /// for no box it would have to unwrap.
  @usableFromInline
  var attachesSubscriberBoxes: Bool {
    false
  }

  /// Attaches the closures in `box`, when `attachesSubscriberBoxes`; see `SubscriberBox`.
  @usableFromInline
  func attach(boxed box: consuming SubscriberBox) -> any Disposable {
    preconditionFailure("Signal.attach(boxed:) must be overridden by \(type(of: self)) if it attaches subscriber boxes")
  }

  /// For a subscription of values alone (`subscribeNext`): if subscribing now would send one value and complete
  /// at once, with nothing to dispose, calls `next` with that value and then `completed`, where the subscription
  /// would have called them (with the same current scheduler: guarantee 5), and returns `true`; the caller then
  /// needs no observer at all. Only `return`'s signal does (its subscription costs no allocation then); every other
  /// signal answers `false` and is attached.
  @usableFromInline
  func sentAtOnce(next: (Value) -> Void, completed: () -> Void) -> Bool {
    false
  }

  /// The one value that subscribing now would send at once, before completing, with nothing to dispose: only
  /// `return`'s signal, where a scheduler is current or in a task (guarantee 5), has one. `flattenMap` and
  /// `bind` splice such a value in without subscribing, inside a delivery that already has its scheduler; every
  /// other signal answers `nil`.
  @usableFromInline
  func valueSentAtOnce() -> Value? {
    nil
  }

  /// Attaches an observer that hands each event to `body`.
  @inlinable
  final func attach(_ body: @escaping @Sendable (Event<Value, Failure>) -> Flow) -> any Disposable {
    attach(Observer(body))
  }

  /// Attaches an observer that hands each event to `body` and carries `downstream`'s demand (see `Demand`): for
  /// an operator that sends at most one value per value it receives, on the thread that sent it, so that a
  /// source above it pauses when the bounded consumer below it is full.
  @inlinable
  final func attach<DownstreamValue, DownstreamFailure>(
    carryingDemandOf downstream: Observer<DownstreamValue, DownstreamFailure>,
    _ body: @escaping @Sendable (Event<Value, Failure>) -> Flow
  ) -> any Disposable {
    attach(Observer(body, demand: downstream.demand))
  }

  /// The signal's name, or its type when it has none.
  ///
  /// ```swift
  /// print(ticks)                 // Signal<Int, Never>
  /// print(ticks.named("clock"))  // clock
  /// ```
  public var description: String {
    name.isEmpty ? "Signal<\(Value.self), \(Failure.self)>" : name
  }

  /// A signal that behaves as this one and carries `name` for debugging and logging.
  ///
  /// ```swift
  /// let clicks = buttonTaps.named("clicks")
  /// print(clicks)  // clicks
  /// ```
  ///
  /// - Parameter name: The debugging name.
  /// - Note: ReactiveCocoa 2.5 `-setNameWithFormat:`, except that the name is always kept: a Swift string
  ///   costs nothing until it is read. `RAC_DEBUG_SIGNAL_NAMES` governs only the names operators derive
  ///   (see ``name``).
  public func named(_ name: String) -> Signal<Value, Failure> {
    AnonymousSignal(name: name) { observer in self.attach(observer) }
  }
}

/// A signal whose subscriptions are made by a closure: what the built-in operators return.
@usableFromInline
final class AnonymousSignal<Value: Sendable, Failure: Error>: Signal<Value, Failure>, @unchecked Sendable {
  // guarded by: immutability (`body` is a `let`).
  @usableFromInline
  let body: @Sendable (Observer<Value, Failure>) -> any Disposable

  @inlinable
  init(name: String = "", _ body: @escaping @Sendable (Observer<Value, Failure>) -> any Disposable) {
    self.body = body
    super.init(name: name)
  }

  /// A signal named by the operator that makes it: pass `upstream.derivedName(…)`.
  @inlinable
  init(
    nameSource: SignalName, _ body: @escaping @Sendable (Observer<Value, Failure>) -> any Disposable
  ) {
    self.body = body
    super.init(nameSource: nameSource)
  }

  @inlinable
  override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    body(observer)
  }
}
