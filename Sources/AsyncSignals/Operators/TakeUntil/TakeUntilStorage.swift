/// Performs `take(until:)` and `take(untilReplacement:)`: owns the lock, and subscribes and disposes with it
/// released.
@usableFromInline
final class TakeUntilStorage<Value: Sendable, Failure: Error>: Disposable {
  @usableFromInline
  let state: LockedState<TakeUntilStateMachine<Value, Failure>>  // guards every decision

  @inlinable
  init(mode: TakeUntilStateMachine<Value, Failure>.Mode, observer: Observer<Value, Failure>) {
    state = LockedState(TakeUntilStateMachine(mode: mode, observer: observer))
  }

  /// `take(until:)`: subscribes to `trigger`, then — unless it has already fired — to `source`.
  @inlinable
  static func attach<Trigger>(
    _ source: Signal<Value, Failure>, until trigger: Signal<Trigger, Failure>,
    observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = TakeUntilStorage(mode: .complete, observer: observer)
    let triggerSubscription = trigger.attach { event in
      switch event {
      case .next, .completed: return storage.state.handle { $0.triggerFired() }
      case .error(let error): return storage.state.handle { $0.finish(.error(error)) }
      }
    }
    return storage.attachSource(source, after: triggerSubscription)
  }

  /// `take(untilReplacement:)`: subscribes to `replacement`, then — unless it has already sent — to `source`.
  @inlinable
  static func attach(
    _ source: Signal<Value, Failure>, untilReplacement replacement: Signal<Value, Failure>,
    observer: Observer<Value, Failure>
  ) -> any Disposable {
    let storage = TakeUntilStorage(mode: .replace, observer: observer)
    let replacementSubscription = replacement.attach { event in
      storage.state.handle { $0.replacementSent(event) }
    }
    return storage.attachSource(source, after: replacementSubscription)
  }

  @inlinable
  func attachSource(_ source: Signal<Value, Failure>, after trigger: any Disposable) -> any Disposable {
    // A trigger that fired at once, or a replacement that sent at once, means the source is never subscribed
    // to: its subscribe body does not run (RAC's `-takeUntil:` and `-takeUntilReplacement:`).
    let (replaced, flow) = state.decide { state in (state.attachedTrigger(trigger), state.sourceEnded) }
    guard flow == .proceed, !replaced else { return self }
    let subscription = source.attach { event in
      switch event {
      case .next(let value): return self.state.update { $0.receivedValue(value) }
      case .error(let error): return self.state.handle { $0.sourceFailed(error) }
      case .completed: return self.state.handle { $0.sourceCompleted() }
      }
    }
    state.handle { $0.attachedSource(subscription) }
    return self
  }

  @usableFromInline
  var isDisposed: Bool { state.isClosed }

  @inlinable
  func dispose() {
    state.handle { $0.stop() }
  }
}
