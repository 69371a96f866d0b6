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
  /// The subscriber is attached before the connection subscribes to the source, so it misses nothing the source
  /// sends (guarantee 5). The connection subscribes on the subscribing thread, unless the previous connection's
  /// disconnect is still running: then on that disconnect's thread, once it has returned. The source's own subscribe
  /// body, if it has one, follows the subscription scheduler.
  func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    let (connection, action) = state.withLock { $0.subscriberArrived() }
    let release = ActionDisposable { self.perform(self.state.withLock { $0.subscriberLeft(connection) }) }
    let subscription = connection.subject.attach(
      Observer { event in
        let flow = observer(event)
        if event.isTerminating || flow == .stop { release.dispose() }
        return flow
      })
    perform(action)
    return CompoundDisposable([subscription, release])
  }

  /// Performs `action` and whatever its report asks for next, with the lock released throughout.
  func perform(_ action: ShareStateMachine<Value, Failure>.Action?) {
    var next = action
    while let action = next {
      switch action {
      case .connect(let connection):
        connection.source.inner = source.attach { event in self.receivedFromSource(event, for: connection) }
        next = state.withLock { $0.connected(connection) }
      case .disconnect(let connection):
        connection.source.dispose()
        next = state.withLock { $0.disconnected(connection) }
      }
    }
  }

  func receivedFromSource(_ event: Event<Value, Failure>, for connection: ShareConnection<Value, Failure>) -> Flow {
    guard event.isTerminating else {
      connection.subject.sendNext(event.value.unsafelyUnwrapped)
      return .proceed
    }
    // Given up before the subscribers hear of the end: one that subscribes from their callbacks starts a new run.
    let next = state.withLock { $0.sourceTerminated(connection) }
    switch event {
    case .error(let error): connection.subject.sendError(error)
    default: connection.subject.sendCompleted()
    }
    perform(next)
    return .stop
  }
}
