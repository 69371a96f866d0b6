/// A mutable value whose changes are a signal: ``signal`` sends the current value first, then every new one.
///
/// Reading and writing ``value`` is safe from any thread; each write is sent to the subscribers of ``signal``
/// in the order the writes happened (a ``BehaviorSubject`` underneath). Each write is sent, even one equal to
/// the current value, as KVO does. When the observable value is deinitialised its signal completes, and the
/// bindings into it end (it is ``LifetimeProviding``).
///
/// ```swift
/// final class LoginViewModel: Sendable {
///   let username = ObservableValue("")
///   let password = ObservableValue("")
/// }
/// let model = LoginViewModel()
/// model.username.signal.subscribeNext { print("username is now", $0) }  // prints "" at once
/// model.username.value = "ada"                                          // prints "ada"
/// text.bind(to: model.username, keyPath: \.value)                       // RAC(model, username) = …
/// ```
///
/// - Note: Replaces ReactiveCocoa 2.5 `RACObserve(object, keyPath)` (`-rac_valuesForKeyPath:observer:`), which
///   observed any KVO-compliant property through the Objective-C runtime: here the property itself is made
///   observable. A `RACObserve` signal completed when the observed object was deallocated; so does ``signal``.
///   For a property of an `@Observable` model, `Signal.observing(model, \.property)` (AsyncSignalsInterop) is
///   the closer counterpart.
public final class ObservableValue<Value: Sendable>: LifetimeProviding, Sendable {
  private let subject: BehaviorSubject<Value, Never>

  /// The lifetime of this observable value: bindings into it end with it.
  ///
  /// ```swift
  /// let counter = ObservableValue(0)
  /// clicks.subscribeNext { [weak counter] _ in counter?.value += 1 }.dispose(with: counter.lifetime)
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `rac_deallocDisposable` of the observed object.
  public let lifetime = Lifetime()

  /// Creates an observable value holding `value`.
  ///
  /// ```swift
  /// let volume = ObservableValue(0.5)
  /// ```
  ///
  /// - Parameter value: The initial value.
  /// - Note: RAC observed an existing KVO-compliant property instead; see the type's note.
  public init(_ value: Value) {
    subject = BehaviorSubject(value: value)
  }

  deinit {
    subject.sendCompleted()
  }

  /// The current value. Setting it sends the new value to the subscribers of ``signal``.
  ///
  /// Each read and each write is atomic; a read-modify-write such as `value += 1` is two of them.
  ///
  /// ```swift
  /// volume.value = 0.8
  /// ```
  ///
  /// - Note: The property that ReactiveCocoa 2.5's `RACObserve` would have observed with KVO.
  public var value: Value {
    get { subject.value }
    set { subject.sendNext(newValue) }
  }

  /// The current value, then each new one; completes when the observable value is deinitialised.
  ///
  /// A subscriber receives the current value at once, on the subscribing thread, before `subscribe` returns, and
  /// every later write after it, from any thread (a ``BehaviorSubject`` attaches at once, guarantee 5).
  ///
  /// ```swift
  /// volume.signal.subscribeNext { slider.value = $0 }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `RACObserve(self, volume)`.
  public var signal: Signal<Value, Never> {
    subject
  }
}
