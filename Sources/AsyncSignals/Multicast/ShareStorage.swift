/// Owns `share(replay:)`'s lock and performs every effect with it released: attaching to a connection's subject,
/// subscribing it to the source, and disposing that subscription.
final class ShareStorage<Value: Sendable, Failure: Error>: Sendable {
  let source: Signal<Value, Failure>
  let state: LockedState<ShareStateMachine<Value, Failure>>  // guards the live connection and its subscriber count

  init(source: Signal<Value, Failure>, replay: Int) {
    self.source = source
    state = LockedState(ShareStateMachine(replay: replay))
  }

  /// Attaches `observer` to the live connection's subject, connecting it first if this is its first subscriber.
  ///
  /// The subscriber is attached before the connection subscribes to the source, on the subscribing thread, so it
  /// misses nothing the source sends (guarantee 5); the source's own subscribe body, if it has one, follows the
  /// subscription scheduler.
  func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    let (connection, connects) = state.withLock { $0.subscriberArrived() }
    let release = ActionDisposable { self.subscriberLeft(connection) }
    let subscription = connection.subject.attach(
      Observer { event in
        let flow = observer(event)
        if event.isTerminating || flow == .stop { release.dispose() }
        return flow
      })
    if connects {
      connection.source.inner = source.attach { event in self.receivedFromSource(event, for: connection) }
    }
    return CompoundDisposable([subscription, release])
  }

  func receivedFromSource(_ event: Event<Value, Failure>, for connection: ShareConnection<Value, Failure>) -> Flow {
    guard event.isTerminating else {
      connection.subject.sendNext(event.value.unsafelyUnwrapped)
      return .proceed
    }
    // Given up before the subscribers hear of the end: one that subscribes from their callbacks starts a new run.
    state.withLock { $0.sourceTerminated(connection) }
    switch event {
    case .error(let error): connection.subject.sendError(error)
    default: connection.subject.sendCompleted()
    }
    return .stop
  }

  func subscriberLeft(_ connection: ShareConnection<Value, Failure>) {
    if state.withLock({ $0.subscriberLeft(connection) }) { connection.source.dispose() }
  }
}
