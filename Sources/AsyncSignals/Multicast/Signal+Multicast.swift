extension Signal {
  /// A connection that shares one subscription to this signal through a plain ``Subject``.
  ///
  /// Subscribers attach to the connection's `signal` and receive what the source sends after
  /// ``MulticastConnection/connect()`` and after they subscribed; nothing is replayed.
  ///
  /// ```swift
  /// let connection = clicks.publish()
  /// connection.signal.subscribeNext { print("a", $0) }
  /// connection.signal.subscribeNext { print("b", $0) }
  /// connection.connect()
  /// ```
  ///
  /// - Returns: An unconnected connection.
  /// - Note: ReactiveCocoa 2.5 `-publish`.
  public func publish() -> MulticastConnection<Value, Failure> {
    multicast(Subject())
  }

  /// A connection that shares one subscription to this signal through `subject`.
  ///
  /// The subject decides what late subscribers see: a ``ReplaySubject`` replays, a ``Subject`` does not.
  ///
  /// ```swift
  /// let connection = request.multicast(ReplaySubject())
  /// connection.connect()
  /// ```
  ///
  /// - Parameter subject: The subject subscribers attach to; the connection subscribes it to this signal.
  /// - Returns: An unconnected connection.
  /// - Note: ReactiveCocoa 2.5 `-multicast:`.
  public func multicast<S: Signal<Value, Failure> & Subscriber<Value, Failure>>(
    _ subject: S
  ) -> MulticastConnection<Value, Failure> {
    MulticastConnection(source: self, subject: subject)
  }

  /// Subscribes to this signal at once, once, and replays everything it sends to every subscriber.
  ///
  /// The shared subscription is never disposed by the subscribers; it ends when the source terminates, and the
  /// terminal event is replayed too.
  ///
  /// ```swift
  /// let user = fetchUser().replay()  // the request starts now
  /// user.subscribeNext({ print($0) }, error: { _ in })
  /// ```
  ///
  /// - Returns: A hot signal that replays all values.
  /// - Note: ReactiveCocoa 2.5 `-replay`.
  public func replay() -> Signal<Value, Failure> {
    let connection = multicast(ReplaySubject())
    connection.connect()
    return connection.signal
  }

  /// Subscribes to this signal at once, once, and replays its latest value (and terminal event) to every
  /// subscriber.
  ///
  /// ```swift
  /// let settings = loadSettings().replayLast()
  /// ```
  ///
  /// - Returns: A hot signal that replays the latest value.
  /// - Note: ReactiveCocoa 2.5 `-replayLast`.
  public func replayLast() -> Signal<Value, Failure> {
    let connection = multicast(ReplaySubject(capacity: 1))
    connection.connect()
    return connection.signal
  }

  /// Subscribes to this signal once, at the first subscription, and replays everything it sends to every
  /// subscriber.
  ///
  /// Disposing the subscriptions never disposes the shared one; it ends when the source terminates.
  ///
  /// ```swift
  /// let avatar = download.replayLazily()  // nothing happens yet
  /// avatar.subscribeNext({ show($0) }, error: { showError($0) })  // the download starts
  /// ```
  ///
  /// - Returns: A signal that starts the source on its first subscription and replays all values.
  /// - Note: ReactiveCocoa 2.5 `-replayLazily`.
  public func replayLazily() -> Signal<Value, Failure> {
    let connection = multicast(ReplaySubject())
    return Signal.defer {
      connection.connect()
      return connection.signal
    }
  }
}
