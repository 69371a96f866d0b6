/// One connection of `share(replay:)`: the subject its subscribers attach to, and its subscription to the source.
///
/// Each connection has a subject of its own, so that what it replays and how it ended belong to that connection
/// alone: the next connection starts with an empty buffer and a live subject.
final class ShareConnection<Value: Sendable, Failure: Error>: Sendable {
  let subject: Subject<Value, Failure>
  /// The subscription to the source, once it is made; disposing it first disposes what is assigned later.
  let source = SerialDisposable()

  init(replay: Int) {
    subject = replay > 0 ? ReplaySubject(capacity: replay) : Subject()
  }
}

/// What `share(replay:)` must do for each input. Pure: no locks, no callouts (making a connection allocates a subject
/// and calls nothing).
///
/// At most one connection is live. The first subscriber makes it; each subscriber counts until it is disposed,
/// terminates or stops; when the count returns to zero the connection is given up and its source subscription
/// disposed. A terminal event from the source gives it up too, before the subscribers receive the event, so that a
/// subscriber arriving from then on (a `repeat` resubscribing in the completion's callback, say) starts a new one.
struct ShareStateMachine<Value: Sendable, Failure: Error>: Sendable {
  let replay: Int
  /// The live connection, if any.
  var connection: ShareConnection<Value, Failure>?
  /// How many subscribers count on `connection`.
  var subscribers = 0

  init(replay: Int) {
    self.replay = replay
  }

  /// A subscriber arrives: it joins the live connection, or makes one.
  ///
  /// - Returns: The connection to attach to, and whether the caller must connect it (it made it).
  mutating func subscriberArrived() -> (connection: ShareConnection<Value, Failure>, connects: Bool) {
    subscribers += 1
    if let connection { return (connection, false) }
    let made = ShareConnection<Value, Failure>(replay: replay)
    connection = made
    return (made, true)
  }

  /// A subscriber of `left` has gone.
  ///
  /// - Returns: Whether `left` is to be disconnected: it was live and had no other subscriber.
  mutating func subscriberLeft(_ left: ShareConnection<Value, Failure>) -> Bool {
    guard connection === left else { return false }  // given up already: its source terminated
    subscribers -= 1
    guard subscribers == 0 else { return false }
    connection = nil
    return true
  }

  /// The source of `ended` sent a terminal event: the next subscriber makes a new connection.
  mutating func sourceTerminated(_ ended: ShareConnection<Value, Failure>) {
    guard connection === ended else { return }
    connection = nil
    subscribers = 0
  }
}
