import Dispatch
import Synchronization

// `RAC(object, keyPath) = signal` and `-setKeyPath:onObject:nilValue:`: bindings of a signal's values into a property.
//
// A binding holds its object weakly. It ends when the signal completes, when it is disposed, and when the object
// goes away: at once if the object is ``LifetimeProviding`` (its lifetime disposes the binding), otherwise when
// the next value finds the object gone — Swift has no deallocation hook for arbitrary objects. Only signals that
// cannot fail can be bound (RAC asserted on an error).

extension Signal where Failure == Never {
  /// Sets `object[keyPath: keyPath]` to each value, on the thread that sends it, until the signal completes or
  /// the object goes away.
  ///
  /// The object is held weakly. The binding ends when the signal completes, when the returned disposable is
  /// disposed, or when the object goes away: at once if it is ``LifetimeProviding``, otherwise at the next value.
  /// The object must be `Sendable`, because values are set from whichever thread sends them (as in RAC); for an
  /// object isolated to the main actor, such as a view, use ``bind(onMainActorTo:keyPath:)``. Binding one
  /// property to two signals lets each overwrite the other.
  ///
  /// ```swift
  /// final class Profile: @unchecked Sendable {  // guards `name` with a lock of its own
  ///   private let lock = NSLock()
  ///   private var storedName = ""
  ///   var name: String {
  ///     get { lock.withLock { storedName } }
  ///     set { lock.withLock { storedName = newValue } }
  ///   }
  /// }
  /// let profile = Profile()
  /// names.bind(to: profile, keyPath: \.name)
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to update; held weakly.
  ///   - keyPath: The property to set.
  /// - Returns: The binding's disposable.
  /// - Note: ReactiveCocoa 2.5 `RAC(object, keyPath)` and `-setKeyPath:onObject:` (and the deprecated
  ///   `-toProperty:onObject:`). RAC needed KVC and deallocation hooks of the Objective-C runtime; here the key
  ///   path is typed and checked by the compiler, and errors are ruled out by the type (RAC asserted).
  @discardableResult
  public func bind<Root: AnyObject & Sendable>(
    to object: Root, keyPath: ReferenceWritableKeyPath<Root, Value> & Sendable
  ) -> any Disposable {
    KeyPathBinding.attach(self, to: object) { object, value in object[keyPath: keyPath] = value }
  }

  /// Sets `object[keyPath: keyPath]` to each value, or to `nilValue` for each `nil`, until the signal completes
  /// or the object goes away.
  ///
  /// As ``bind(to:keyPath:)``, for a signal of optionals bound to a property that is not optional.
  ///
  /// ```swift
  /// selectedColor.bind(to: style, keyPath: \.color, nilValue: .black)
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to update; held weakly.
  ///   - keyPath: The property to set.
  ///   - nilValue: What to set when the signal sends `nil`.
  /// - Returns: The binding's disposable.
  /// - Note: ReactiveCocoa 2.5 `-setKeyPath:onObject:nilValue:` and `RAC(object, keyPath, nilValue)`.
  @discardableResult
  public func bind<Root: AnyObject & Sendable, Wrapped: Sendable>(
    to object: Root, keyPath: ReferenceWritableKeyPath<Root, Wrapped> & Sendable, nilValue: Wrapped
  ) -> any Disposable where Value == Wrapped? {
    KeyPathBinding.attach(self, to: object) { object, value in object[keyPath: keyPath] = value ?? nilValue }
  }

  /// Sets `object[keyPath: keyPath]` to each value on the main actor, in order, until the signal completes or
  /// the object goes away.
  ///
  /// For objects isolated to the main actor, such as views and `@Observable` view models. A value sent on the main
  /// queue while no earlier value is waiting is set at once; any other is queued on the main queue, behind the
  /// earlier ones, as RAC's `-deliverOnMainThread` does. The object is held weakly.
  ///
  /// When it ends: when the signal completes, when the returned disposable is disposed, or when the object goes
  /// away. An object that is ``LifetimeProviding`` (a model that owns its pipeline) ends it at once when it is
  /// deinitialised: its lifetime disposes the binding and everything upstream, so async work in flight (a
  /// `Signal.async` search) is cancelled. Any other object ends it only at the next value, which finds the object
  /// gone; until then the work upstream runs on, to its end. A queued value's main-actor job counts as work in
  /// progress for `TestScheduler.settle()` until it has run.
  ///
  /// ```swift
  /// @MainActor func viewDidLoad() {
  ///   viewModel.title.bind(onMainActorTo: titleLabel, keyPath: \.text)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to update; held weakly.
  ///   - keyPath: The property to set.
  /// - Returns: The binding's disposable.
  /// - Note: ReactiveCocoa 2.5 `RAC(object, keyPath)` and `-setKeyPath:onObject:`, which set values on the
  ///   sending thread and documented that a view must be bound to a signal delivering on the main thread.
  @MainActor
  @discardableResult
  public func bind<Root: AnyObject>(
    onMainActorTo object: Root, keyPath: ReferenceWritableKeyPath<Root, Value>
  ) -> any Disposable {
    MainActorKeyPathBinding(object) { object, value in object[keyPath: keyPath] = value }.attach(self)
  }

  /// Sets `object[keyPath: keyPath]` to each value on the main actor, in order, with at most `bufferingPolicy`'s
  /// limit of values waiting for the main actor, until the signal completes or the object goes away.
  ///
  /// The binding of ``bind(onMainActorTo:keyPath:)`` with a bound on what waits for the main actor, as
  /// ``subscribeNext(isolatedTo:bufferingPolicy:_:error:completed:isolation:)`` describes it.
  /// `.bufferingNewest(1)` is the UI's choice for a fast feed (a sensor, a socket): the view gets the latest value
  /// at each main-actor turn, and the main queue never holds a backlog; ``IsolatedSubscription/droppedCount`` says
  /// how many it skipped. `.bounded(n)` keeps every value and pauses the sources that can pause. A value waiting for
  /// the main actor counts as work in progress for `TestScheduler.settle()`; a source paused for room does not.
  ///
  /// ```swift
  /// @MainActor final class PriceLabel { var price = 0.0 }
  /// let label = PriceLabel()
  /// // `ticker` sends faster than the main actor turns: the label gets the latest price at each turn.
  /// ticker.bind(onMainActorTo: label, keyPath: \.price, bufferingPolicy: .bufferingNewest(1))
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to update; held weakly.
  ///   - keyPath: The property to set.
  ///   - bufferingPolicy: How many values may wait for the main actor, and what happens past that.
  /// - Returns: The binding, with its counts.
  /// - Note: ReactiveCocoa 2.5 `RAC(object, keyPath)` of a signal delivered on the main thread, with a bound.
  @MainActor
  @discardableResult
  public func bind<Root: AnyObject>(
    onMainActorTo object: Root, keyPath: ReferenceWritableKeyPath<Root, Value>, bufferingPolicy: SignalBufferingPolicy
  ) -> IsolatedSubscription {
    let bound = DeliveryBound(bufferingPolicy, caller: "bind(onMainActorTo:keyPath:bufferingPolicy:)")
    let binding = MainActorKeyPathBinding(object) { object, value in object[keyPath: keyPath] = value }
      .attach(self, bound: bound)
    return IsolatedSubscription(binding, bufferingPolicy: bufferingPolicy, bound: bound)
  }

  /// Sets `object[keyPath: keyPath]` to each value, or to `nilValue` for each `nil`, on the main actor, in
  /// order, until the signal completes or the object goes away.
  ///
  /// As ``bind(onMainActorTo:keyPath:)``, for a signal of optionals bound to a property that is not optional.
  ///
  /// ```swift
  /// viewModel.subtitle.bind(onMainActorTo: subtitleLabel, keyPath: \.text, nilValue: "—")
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object to update; held weakly.
  ///   - keyPath: The property to set.
  ///   - nilValue: What to set when the signal sends `nil`.
  /// - Returns: The binding's disposable.
  /// - Note: ReactiveCocoa 2.5 `-setKeyPath:onObject:nilValue:`.
  @MainActor
  @discardableResult
  public func bind<Root: AnyObject, Wrapped: Sendable>(
    onMainActorTo object: Root, keyPath: ReferenceWritableKeyPath<Root, Wrapped>, nilValue: Wrapped
  ) -> any Disposable where Value == Wrapped? {
    MainActorKeyPathBinding(object) { object, value in object[keyPath: keyPath] = value ?? nilValue }.attach(self)
  }
}

/// A binding on the sending thread.
enum KeyPathBinding {
  static func attach<Root: AnyObject & Sendable, Value>(
    _ signal: Signal<Value, Never>, to object: Root, _ set: @escaping @Sendable (Root, Value) -> Void
  ) -> any Disposable {
    let lifetime = (object as? any LifetimeProviding)?.lifetime
    let binding = SerialDisposable()
    binding.inner = signal.attach { [weak object, weak lifetime] event in
      guard case .next(let value) = event, let object else {
        binding.dispose()
        lifetime?.remove(binding)
        return .stop
      }
      set(object, value)
      return .proceed
    }
    lifetime?.add(binding)
    return binding
  }
}

/// A binding that sets values on the main actor, through the isolated-delivery engine in its at-once mode: a value
/// sent on the main queue while nothing is waiting is set before `sendNext` returns; any other is queued, and one
/// main-queue job sets a whole burst, in order (RAC's `-deliverOnMainThread` rule, without a block per value).
@MainActor
final class MainActorKeyPathBinding<Root: AnyObject, Value: Sendable> {
  private weak var object: Root?
  private let set: (Root, Value) -> Void
  nonisolated private weak let lifetime: Lifetime?

  init(_ object: Root, set: @escaping (Root, Value) -> Void) {
    self.object = object
    self.set = set
    self.lifetime = (object as? any LifetimeProviding)?.lifetime
  }

  func attach(_ signal: Signal<Value, Never>, bound: DeliveryBound? = nil) -> SerialDisposable {
    let binding = SerialDisposable()
    lifetime?.add(binding)
    binding.inner = IsolatedDelivery.attach(
      signal, to: .strong(MainActor.shared), executor: ActorExecutor(of: MainActor.shared), mode: .atOnceOnExecutor,
      subscribingOnActor: true,  // this class is isolated to the main actor
      bound: bound
    ) { [self, weak binding] _, event in
      let flow = MainActor.assumeIsolated { apply(event) }
      if flow == .stop, let binding {
        binding.dispose()
        lifetime?.remove(binding)
      }
      return flow
    }
    return binding
  }

  private func apply(_ event: Event<Value, Never>) -> Flow {
    guard case .next(let value) = event, let object else {
      // Completed, or the object has gone: the engine ends the binding on `.stop`.
      return .stop
    }
    set(object, value)
    return .proceed
  }
}
