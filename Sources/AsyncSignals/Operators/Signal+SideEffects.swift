// Operators that run side effects as events pass: doNext, doError, doCompleted, initially and finally; and
// doSubscribed and doDisposed, which run one when a subscription has been made and when it is disposed.
//
// All of them are plain forwarding: no allocation and no lock per event. The side effect runs on the thread
// that delivers the event, before the event is forwarded, as in RAC. `doDisposed` adds one object and one lock
// per subscription (`DisposalHook`), taken when the subscription ends, never per value.

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
        Observer(
          raw: { kind, payload in
            if kind == .next { action(payload.unsafelyUnwrapped.assumingMemoryBound(to: Value.self).pointee) }
            return observer.raw(kind, payload)
          }, demand: observer.demand))
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
      self.attach(carryingDemandOf: observer) { event in
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
      self.attach(carryingDemandOf: observer) { event in
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

  /// Runs `action` once each subscription to this signal has been made: after the subscriber is attached.
  ///
  /// Where ``initially(_:)`` runs before this signal is subscribed, `doSubscribed` runs right after: this signal has
  /// attached the subscriber, on the subscribing thread, before `subscribe` returns. For a subject, the subscriber is
  /// then in its list, and everything sent to the subject from `action` on reaches it — which makes it the place to
  /// start a producer that feeds a subject, once the loop it feeds is listening. For a `for await` loop that is its
  /// first `next()`, which subscribes. A ``create(_:)`` body that runs at once (guarantee 5) has run by then; one that
  /// the subscription scheduler runs later may not have. `action` runs once per subscription, even when the
  /// subscription has already ended while attaching (a signal that completes at once). Events pass through
  /// unchanged, and so does a bounded loop's pause; disposing the result disposes the upstream subscription.
  ///
  /// ```swift
  /// let lines = Subject<String, Never>()
  /// let fed = lines.doSubscribed {
  ///   Task {  // the loop is subscribed: nothing sent from now on is lost
  ///     for line in ["a", "b", "c"] {
  ///       guard await lines.send(line) == .sent else { return }  // the loop has ended
  ///     }
  ///     lines.sendCompleted()
  ///   }
  /// }
  /// for await line in fed.values(bufferingPolicy: .bounded(2)) { print(line) }
  /// ```
  ///
  /// - Parameter action: The side effect, run once per subscription, on the subscribing thread.
  /// - Returns: A signal with the same events.
  /// - Note: No ReactiveCocoa 2.5 counterpart (its `-initially:` runs before the subscription). RxSwift's
  ///   `do(onSubscribed:)`, ReactiveSwift's `on(started:)`; Combine's `handleEvents(receiveSubscription:)` runs as
  ///   the upstream hands over its subscription, which for a subject is also once the subscriber is attached.
  @inlinable
  public func doSubscribed(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("doSubscribed")) { observer in
      let subscription = self.attach(observer)
      action()
      return subscription
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
      self.attach(carryingDemandOf: observer) { event in
        if event.isTerminating { action() }
        return observer(event)
      }
    }
  }

  /// Runs `action` when the subscription is disposed before it has failed or completed.
  ///
  /// A subscription is disposed through its disposable (which is what leaving a `for await` loop early, or
  /// cancelling its task, does while the signal is live) or by an operator downstream that needs nothing more:
  /// ``take(_:file:line:)`` once it has its values, ``take(until:)-(Signal<Trigger,Failure>)`` when its trigger
  /// fires. `action` then runs
  /// once, before the source's subscription is disposed, on the thread that disposes — for an operator
  /// downstream, the thread that delivered the value it stopped on, after that operator has sent its events. It
  /// never runs after a failure or completion, nor when the subscription is disposed after either: pair it with
  /// ``finally(_:)``, which runs only on those, and one of the two runs once whichever way a subscription ends.
  /// Events pass through unchanged; `action` is released when the subscription ends, whichever way.
  ///
  /// ```swift
  /// let tracked = download
  ///   .doDisposed { print("download cancelled") }  // disposed before it failed or completed
  ///   .finally { print("download ended") }  // failed or completed
  /// ```
  ///
  /// - Parameter action: The side effect, run at most once per subscription.
  /// - Returns: A signal with the same events.
  /// - Note: No ReactiveCocoa 2.5 counterpart: RAC runs code on disposal only through the disposable that a
  ///   `+createSignal:` block returns, which also runs after a terminal event. Combine's
  ///   `handleEvents(receiveCancel:)`, whose semantics it has. RxSwift's `do(onDispose:)` and ReactiveSwift's
  ///   `on(disposed:)` also run after a failure or completion: `.doDisposed(action).finally(action)` does that.
  @inlinable
  public func doDisposed(_ action: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
    AnonymousSignal(nameSource: derivedName("doDisposed")) { observer in
      let hook = DisposalHook(action: action)
      let source = self.attach(
        Observer(
          raw: { kind, payload in
            guard kind == .next else {
              // Decided before forwarding: a disposal from the downstream's callback is too late. A disposal that
              // won already ran the action, so the event goes no further (exactly one of the two ends).
              guard hook.sourceTerminated() else { return .stop }
              return observer.raw(kind, payload)
            }
            let flow = observer.raw(kind, payload)
            if flow == .stop { hook.downstreamStopped() }
            return flow
          }, demand: observer.demand))
      hook.attachedSource(source)
      return hook
    }
  }
}
