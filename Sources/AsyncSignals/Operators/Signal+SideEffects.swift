// Operators that run side effects as events pass: doNext, doError, doCompleted, initially and finally.
//
// All of them are plain forwarding: no allocation and no lock per event. The side effect runs on the thread
// that delivers the event, before the event is forwarded, as in RAC.

extension Signal {
  /// Runs `action` with each value, before the value is forwarded.
  ///
  /// Failures and completion pass through; disposing the result disposes the upstream subscription. The
  /// action runs once per value per subscription.
  ///
  /// ```swift
  /// let cached = updates.doNext { cache.store($0) }  // each update is cached, then forwarded
  /// ```
  ///
  /// - Parameter action: The side effect, called with each value.
  /// - Returns: A signal with the same events.
  /// - Note: ReactiveCocoa 2.5 `-doNext:`.
  @inlinable
  public func doNext(_ action: @escaping @Sendable (Value) -> Void) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("doNext")) { observer in
      // One raw closure that calls `action` itself, as `map` does (a helper would add a closure per event).
      self.attach(
        Observer(raw: { kind, payload in
          if kind == .next { action(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee) }
          return observer.raw(kind, payload)
        }))
    }
  }

  /// Runs `action` with the failure, before the failure is forwarded.
  ///
  /// Values and completion pass through; disposing the result disposes the upstream subscription (the action
  /// does not run on disposal).
  ///
  /// ```swift
  /// let reported = upload.doError { showError($0) }  // the failure is still forwarded
  /// ```
  ///
  /// - Parameter action: The side effect, called with the failure.
  /// - Returns: A signal with the same events.
  /// - Note: ReactiveCocoa 2.5 `-doError:`.
  @inlinable
  public func doError(_ action: @escaping @Sendable (Failure) -> Void) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("doError")) { observer in
      self.attach { event in
        if case .error(let error) = event { action(error) }
        return observer(event)
      }
    }
  }

  /// Runs `action` on completion, before the completion is forwarded.
  ///
  /// Values and failures pass through; disposing the result disposes the upstream subscription (the action
  /// does not run on disposal).
  ///
  /// ```swift
  /// let tracked = download.doCompleted { spinner.stop() }
  /// ```
  ///
  /// - Parameter action: The side effect.
  /// - Returns: A signal with the same events.
  /// - Note: ReactiveCocoa 2.5 `-doCompleted:`.
  @inlinable
  public func doCompleted(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("doCompleted")) { observer in
      self.attach { event in
        if case .completed = event { action() }
        return observer(event)
      }
    }
  }

  /// Runs `action` at the start of each subscription, before this signal is subscribed.
  ///
  /// `action` runs at once as each subscription starts, on the subscribing thread, and this signal is attached
  /// right after, both before `subscribe` returns, so a value sent to a subject right after subscribing to
  /// `subject.initially(…)` is never lost (guarantee 5). Events pass through unchanged; disposing the result
  /// disposes the upstream subscription.
  ///
  /// ```swift
  /// let fetch = request.initially { spinner.start() }
  /// ```
  ///
  /// - Parameter action: The side effect, run once per subscription.
  /// - Returns: A signal with the same events.
  /// - Note: ReactiveCocoa 2.5 `-initially:`. A deliberate difference: RAC built it on `+defer:`, so that from a
  ///   background thread `action` and the subscription to this signal waited for the subscription scheduler,
  ///   and values sent meanwhile were lost; here both happen at once.
  @inlinable
  public func initially(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("initially")) { observer in
      action()
      return self.attach(observer)
    }
  }

  /// Runs `action` when the signal fails or completes, before the terminal event is forwarded.
  ///
  /// `action` does not run when the subscription is disposed before either. Events pass through unchanged.
  ///
  /// ```swift
  /// let fetch = request.initially { spinner.start() }.finally { spinner.stop() }
  /// ```
  ///
  /// - Parameter action: The side effect, run at most once per subscription.
  /// - Returns: A signal with the same events.
  /// - Note: ReactiveCocoa 2.5 `-finally:` (`doError:` and `doCompleted:` with the same block, so it runs
  ///   before the downstream receives the terminal event, and never on disposal).
  @inlinable
  public func finally(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("finally")) { observer in
      self.attach { event in
        if event.isTerminating { action() }
        return observer(event)
      }
    }
  }
}
