/// One connection of `share(replay:)`: the subject its subscribers attach to, and its subscription to the source.
///
/// Each connection has a subject of its own, so that what it replays and how it ended belong to that connection
/// alone: the next connection starts with an empty buffer and a live subject.
final class ShareConnection<Value: Sendable, Failure: Error>: Sendable {
  let subject: Subject<Value, Failure>
  /// The subscription to the source, assigned once the source's `attach` has returned.
  let source = SerialDisposable()

  init(replay: Int) {
    subject = replay > 0 ? ReplaySubject(capacity: replay) : Subject()
  }
}

/// What `share(replay:)` must do for each input. Pure: no locks, no callouts (making a connection allocates a subject
/// and calls nothing).
///
/// Two roles, kept apart. The *live* connection is the one subscribers join: the first subscriber makes it, each
/// subscriber counts until it is disposed, terminates or stops, and when the count returns to zero it is given up. A
/// terminal event from the source gives it up too, before the subscribers receive the event, so that a subscriber
/// arriving from then on (a `repeat` resubscribing in the completion's callback, say) starts a new one.
///
/// The *upstream* connection is the one whose source subscription is being made, is live, or is being disposed: at
/// most one at a time, so that connections never overlap. A connection given up while its source subscription is
/// still being made is disconnected once that returns; a connection made while the previous one's disconnect runs
/// (on another thread, or from the disconnect itself) connects once that has returned, on the thread that ran it.
struct ShareStateMachine<Value: Sendable, Failure: Error>: Sendable {
  /// An effect for the caller to perform with the lock released, then report back.
  enum Action {
    /// Subscribe `connection`'s subject to the source, then report ``connected(_:)``.
    case connect(ShareConnection<Value, Failure>)
    /// Dispose `connection`'s source subscription, then report ``disconnected(_:)``.
    case disconnect(ShareConnection<Value, Failure>)
  }

  /// Where the upstream connection's source subscription stands.
  enum Upstream {
    case connecting(ShareConnection<Value, Failure>)
    case connected(ShareConnection<Value, Failure>)
    case disconnecting(ShareConnection<Value, Failure>)
  }

  let replay: Int
  /// The connection subscribers join, if any.
  var live: ShareConnection<Value, Failure>?
  /// How many subscribers count on `live`.
  var subscribers = 0
  /// The connection whose source subscription exists or is being made or unmade, if any.
  var upstream: Upstream?

  init(replay: Int) {
    self.replay = replay
  }

  /// A subscriber arrives: it joins the live connection, or makes one.
  ///
  /// - Returns: The connection to attach to, and whether to connect it now (it is new and no other is upstream).
  mutating func subscriberArrived() -> (connection: ShareConnection<Value, Failure>, action: Action?) {
    subscribers += 1
    if let live { return (live, nil) }
    let made = ShareConnection<Value, Failure>(replay: replay)
    live = made
    guard upstream == nil else { return (made, nil) }  // connects when the upstream one has been disconnected
    upstream = .connecting(made)
    return (made, .connect(made))
  }

  /// A subscriber of `left` has gone.
  ///
  /// - Returns: `.disconnect` when `left` was live, had no other subscriber, and its source subscription is made.
  mutating func subscriberLeft(_ left: ShareConnection<Value, Failure>) -> Action? {
    guard live === left else { return nil }  // given up already: its source terminated
    subscribers -= 1
    guard subscribers == 0 else { return nil }
    live = nil
    guard case .connected(let connection) = upstream, connection === left else {
      return nil  // still connecting (disconnected once connected), or never connected (waited for the upstream one)
    }
    upstream = .disconnecting(left)
    return .disconnect(left)
  }

  /// The source subscription of `connection` has been made.
  ///
  /// - Returns: `.disconnect` when it was given up meanwhile: every subscriber left while it was being made.
  mutating func connected(_ connection: ShareConnection<Value, Failure>) -> Action? {
    guard case .connecting(let connecting) = upstream, connecting === connection else {
      return nil  // its source terminated while it was being made: nothing upstream to dispose
    }
    guard live === connection else {
      upstream = .disconnecting(connection)
      return .disconnect(connection)
    }
    upstream = .connected(connection)
    return nil
  }

  /// The source subscription of `connection` has been disposed.
  ///
  /// - Returns: `.connect` for a live connection made meanwhile, which waited for this one.
  mutating func disconnected(_ connection: ShareConnection<Value, Failure>) -> Action? {
    guard case .disconnecting(let disconnecting) = upstream, disconnecting === connection else { return nil }
    return connectWaiting()
  }

  /// The source of `ended` sent a terminal event: it is neither live nor upstream any more, and the next subscriber
  /// makes a new connection.
  ///
  /// - Returns: `.connect` for a live connection that waited for this one.
  mutating func sourceTerminated(_ ended: ShareConnection<Value, Failure>) -> Action? {
    if live === ended {
      live = nil
      subscribers = 0
    }
    switch upstream {
    case .connecting(let connection) where connection === ended, .connected(let connection) where connection === ended,
      .disconnecting(let connection) where connection === ended:
      return connectWaiting()
    default:
      return nil
    }
  }

  /// Nothing is upstream any more: the live connection, if one waited, connects.
  private mutating func connectWaiting() -> Action? {
    upstream = live.map { .connecting($0) }
    return live.map { .connect($0) }
  }
}
