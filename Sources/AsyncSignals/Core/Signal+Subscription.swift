extension Signal {
  /// Subscribes `subscriber` to the signal.
  ///
  /// The subscriber first receives the subscription's disposable through
  /// ``Subscriber/didSubscribe(with:)``, then the events, one at a time. Disposing the returned disposable
  /// (or the one the subscriber received) ends the subscription; so does a terminal event.
  ///
  /// ```swift
  /// let subject = Subject<Int, Never>()
  /// numbers.subscribe(subject)  // forwards numbers into the subject
  /// ```
  ///
  /// - Parameter subscriber: The receiver of the events.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-subscribe:`.
  @inlinable
  @discardableResult
  public func subscribe<S: Subscriber>(_ subscriber: S) -> any Disposable
  where S.Value == Value, S.Failure == Failure {
    subscribe(subscriber, demand: nil)
  }

  /// `subscribe(_:)` for a bounded consumer (the Interop module's `.bounded` iterator): its `demand` travels up the
  /// chain to the sources that can pause (see `Demand`).
  @inlinable
  @discardableResult
  package func subscribe<S: Subscriber>(_ subscriber: S, demand: Demand?) -> any Disposable
  where S.Value == Value, S.Failure == Failure {
    let subscription = SerialDisposable()
    subscriber.didSubscribe(with: subscription)
    let disposable = attach(
      Observer(raw: { kind, payload in
        guard !subscription.isDisposed else { return .stop }
        switch kind {
        case .next:
          subscriber.sendNext(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee)
          return .proceed
        case .error:
          subscriber.sendError(payload.unsafelyUnwrapped.assumingMemoryBound(to: Failure.self).pointee)
        case .completed:
          subscriber.sendCompleted()
        }
        subscription.dispose()
        return .stop
      }, demand: demand))
    subscription.inner = disposable
    return subscription
  }

  /// Subscribes with closures for values, the failure and completion.
  ///
  /// The closures are called one at a time, never concurrently, and released when the subscription ends. Once the
  /// subscription is disposed, none is called again, even when a callback disposes it and an operator sends another
  /// event straight after (`take(n)`'s completion after its n-th value).
  ///
  /// ```swift
  /// download.subscribeNext({ print("progress", $0) }, error: { print("failed", $0) }, completed: {
  ///   print("done")
  /// })
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called with each value.
  ///   - error: Called with the failure.
  ///   - completed: Called on completion.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-subscribeNext:error:completed:`.
  @inlinable
  @discardableResult
  public func subscribeNext(
    _ next: @escaping @Sendable (Value) -> Void,
    error: @escaping @Sendable (Failure) -> Void,
    completed: @escaping @Sendable () -> Void
  ) -> any Disposable {
    // `return` where it sends at once: no observer, no allocation.
    if sentAtOnce(next: next, completed: completed) { return DisposedDisposable.shared }
    // A subject or a `create` body: its sink keeps the closures in one box, with no closure context around them.
    if attachesSubscriberBoxes {
      return attach(boxed: EventSubscriberBox(next: next, error: error, completed: completed))
    }
    // An operator stands between the signal and the closures. It may send two events for one it receives —
    // `take(n)`'s n-th value and then its completion, `collect`'s array and then its completion — calling this
    // observer straight after a value whose callback disposed the subscription, with no sink in between to see it.
    // So the subscription returned is the chain's own disposable with a flag that only its `dispose()` sets, and this
    // observer checks the flag before a terminal event (guarantee 2). (The chain's disposable cannot say it: operators
    // with several inputs dispose theirs before they send their terminal event.) Values need no check: each one
    // reaches this observer through a sink (a source's, an inner's, a hop's) or an operator's state, which checks
    // its own subscription, or through an operator that checks it itself (`catch`'s replacement, `subscribe(on:)`,
    // `takeLast`'s burst at completion), so the per-value path is unchanged. The guarantee 2 sweep of the tests
    // (Core/Guarantee2SweepTests.swift) holds every operator to this, with each of the subscription forms.
    let disposedByCaller = ActionDisposable()  // no action: a flag that its `dispose()` sets
    let disposable = attach(
      Observer(raw: { kind, payload in
        if kind != .next, disposedByCaller.isDisposed { return .stop }
        return kind.send(payload, next: next, error: error, completed: completed)
      }))
    return CallbackSubscription(disposable, flag: disposedByCaller)
  }

  /// Subscribes with closures for values and the failure; completion ends the subscription silently.
  ///
  /// ```swift
  /// search.subscribeNext({ print($0) }, error: { print("failed", $0) })
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called with each value.
  ///   - error: Called with the failure.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-subscribeNext:error:`.
  @inlinable
  @discardableResult
  public func subscribeNext(
    _ next: @escaping @Sendable (Value) -> Void, error: @escaping @Sendable (Failure) -> Void
  ) -> any Disposable {
    subscribeNext(next, error: error, completed: {})
  }

  /// Subscribes with a closure for the failure; values and completion are not observed.
  ///
  /// ```swift
  /// upload.subscribeError { print("upload failed:", $0) }
  /// ```
  ///
  /// - Parameter error: Called with the failure.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-subscribeError:`.
  @inlinable
  @discardableResult
  public func subscribeError(_ error: @escaping @Sendable (Failure) -> Void) -> any Disposable {
    subscribeNext({ _ in }, error: error, completed: {})
  }

  /// Subscribes with closures for the failure and completion; values are not observed.
  ///
  /// ```swift
  /// upload.subscribeError({ print("upload failed:", $0) }, completed: { print("uploaded") })
  /// ```
  ///
  /// - Parameters:
  ///   - error: Called with the failure.
  ///   - completed: Called on completion.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-subscribeError:completed:`.
  @inlinable
  @discardableResult
  public func subscribeError(
    _ error: @escaping @Sendable (Failure) -> Void, completed: @escaping @Sendable () -> Void
  ) -> any Disposable {
    subscribeNext({ _ in }, error: error, completed: completed)
  }
}

// What a signal that can fail answers to the subscriptions that would drop its failure. Without these, the
// compiler's only answer is "requires the types 'APIError' and 'Never' be equivalent"; with them, it says what
// to write. The ones in the `Failure == Never` extension below are more specialised, so they win whenever they
// apply: these are chosen only when the signal can fail, and then the call does not compile, with this message.
extension Signal {
  /// Not available on a signal that can fail: it would drop the failure.
  ///
  /// Write ``subscribeNext(_:error:)`` (or ``subscribeNext(_:error:completed:)``) to handle the failure, or
  /// replace the failure first with ``catch(_:)`` or ``catch(to:)``, whose result can have `Never` as its
  /// failure type. (``promoteError(to:)`` goes the other way: it lets a signal that cannot fail meet one that
  /// can.) The subscription never starts: the call does not compile.
  ///
  /// ```swift
  /// search.subscribeNext({ show($0) }, error: { showError($0) })
  /// search.catch(to: .return([])).subscribeNext { show($0) }  // a failure becomes an empty result
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-subscribeNext:` ignored errors; Swift's typed failures rule that out.
  @available(
    *, unavailable,
    message:
      "this signal can fail, and subscribeNext(_:) would drop the failure: add an 'error:' handler (subscribeNext(_:error:)), or replace the failure first with 'catch { _ in .empty }' or 'catch(to:)' (promoteError(to:) goes the other way, from Never to a failure)"
  )
  @discardableResult
  public func subscribeNext(_ next: @escaping @Sendable (Value) -> Void) -> any Disposable {
    subscribeNext(next, error: { _ in }, completed: {})
  }

  /// Not available on a signal that can fail: it would drop the failure.
  ///
  /// Write ``subscribeNext(_:error:completed:)`` to handle the failure, or replace it first with
  /// ``catch(_:)`` or ``catch(to:)``. The subscription never starts: the call does not compile.
  ///
  /// ```swift
  /// countdown.subscribeNext({ print($0) }, error: { print("failed", $0) }, completed: { print("liftoff") })
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-subscribeNext:completed:` ignored errors; Swift's typed failures rule that out.
  @available(
    *, unavailable,
    message:
      "this signal can fail, and subscribeNext(_:completed:) would drop the failure: add an 'error:' handler (subscribeNext(_:error:completed:)), or replace the failure first with 'catch { _ in .empty }' or 'catch(to:)'"
  )
  @discardableResult
  public func subscribeNext(
    _ next: @escaping @Sendable (Value) -> Void, completed: @escaping @Sendable () -> Void
  ) -> any Disposable {
    subscribeNext(next, error: { _ in }, completed: completed)
  }

  /// Not available on a signal that can fail: it would drop the failure.
  ///
  /// Write ``subscribeError(_:completed:)`` to handle the failure too, or replace it first with
  /// ``catch(_:)`` or ``catch(to:)``. The subscription never starts: the call does not compile.
  ///
  /// ```swift
  /// migration.subscribeError({ print("failed", $0) }, completed: { print("migrated") })
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-subscribeCompleted:` ignored errors; Swift's typed failures rule that out.
  @available(
    *, unavailable,
    message:
      "this signal can fail, and subscribeCompleted(_:) would drop the failure: use subscribeError(_:completed:), or replace the failure first with 'catch { _ in .empty }' or 'catch(to:)'"
  )
  @discardableResult
  public func subscribeCompleted(_ completed: @escaping @Sendable () -> Void) -> any Disposable {
    subscribeNext({ _ in }, error: { _ in }, completed: completed)
  }
}

// Subscriptions that do not observe the failure exist only for signals that cannot fail: a failure must never be
// dropped silently (guarantee 9). For a failing signal, handle the error, or turn it into a value first.
extension Signal where Failure == Never {
  /// Subscribes with a closure for values.
  ///
  /// Available when the signal cannot fail; RAC's version ignored errors, which Swift's typed failures let
  /// us rule out.
  ///
  /// ```swift
  /// clicks.subscribeNext { print("clicked", $0) }
  /// ```
  ///
  /// - Parameter next: Called with each value.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-subscribeNext:`.
  @inlinable @inline(__always)
  @discardableResult
  public func subscribeNext(_ next: @escaping @Sendable (Value) -> Void) -> any Disposable {
    // Always inlined: with two paths it is no longer inlined on its own, and where a signal is made and subscribed
    // in one function the optimiser then loses sight of its type, and of a `create` body's sink (Benchmarks B4c).
    // `return` where it sends at once: no observer, no allocation.
    if sentAtOnce(next: next, completed: {}) { return DisposedDisposable.shared }
    // A subject or a `create` body: its sink keeps `next` in a box, with no closure context around it (issue 29).
    if attachesSubscriberBoxes { return attach(boxed: NextSubscriberBox(next)) }
    // Its own observer, capturing `next` alone: 32 bytes less per live subscription than the three-closure form's
    // (issue 13's W8a), and no calls of empty closures.
    return attach(
      Observer(raw: { kind, payload in
        guard kind == .next else { return .stop }  // completion: the subscription ends
        next(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee)
        return .proceed
      }))
  }

  /// Subscribes with closures for values and completion.
  ///
  /// ```swift
  /// countdown.subscribeNext({ print($0) }, completed: { print("liftoff") })
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called with each value.
  ///   - completed: Called on completion.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-subscribeNext:completed:`.
  @inlinable
  @discardableResult
  public func subscribeNext(
    _ next: @escaping @Sendable (Value) -> Void, completed: @escaping @Sendable () -> Void
  ) -> any Disposable {
    subscribeNext(next, error: { _ in }, completed: completed)
  }

  /// Subscribes with a closure for completion; values are not observed.
  ///
  /// ```swift
  /// countdown.subscribeCompleted { print("liftoff") }
  /// ```
  ///
  /// - Parameter completed: Called on completion.
  /// - Returns: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-subscribeCompleted:`.
  @inlinable
  @discardableResult
  public func subscribeCompleted(_ completed: @escaping @Sendable () -> Void) -> any Disposable {
    subscribeNext({ _ in }, error: { _ in }, completed: completed)
  }
}

/// A chain's disposable and a flag that only its own `dispose()` sets: what `subscribeNext(_:error:completed:)` returns
/// through an operator, whose closures' observer checks the flag before a terminal event, and what `takeLast(_:)`
/// returns, whose burst of values at completion checks it before each event.
///
/// Disposing it disposes the chain's disposable on every call, not only the first, so that a caller's `dispose()`
/// returns only once the chain's own has: that is what stops deliveries (no delivery starts on a thread after its
/// `dispose()` there has returned).
@usableFromInline
final class CallbackSubscription: Disposable {
  @usableFromInline let inner: any Disposable
  /// Disposed by the caller's `dispose()` alone (it has no action).
  @usableFromInline let flag: ActionDisposable

  @inlinable
  init(_ inner: any Disposable, flag: ActionDisposable) {
    self.inner = inner
    self.flag = flag
  }

  /// Disposed by the caller, or ended (the chain's disposable is disposed once the subscription has terminated).
  @usableFromInline
  var isDisposed: Bool { flag.isDisposed || inner.isDisposed }

  @usableFromInline
  func dispose() {
    flag.dispose()
    inner.dispose()
  }
}
