extension Signal {
  /// Shares one subscription to this signal among its subscribers while any is subscribed: it connects on the first,
  /// disconnects after the last, and connects again for the next.
  ///
  /// The first subscriber connects: a new subject is made, the subscriber attaches to it, and the subject is
  /// subscribed to this signal, once. Later subscribers attach to the same subject and receive what the source sends
  /// after they subscribed — and, with `replay` above zero, first the latest `replay` values it sent on this
  /// connection. When the last subscriber has gone (disposed, terminated, or stopped as `take(_:)` stops), the
  /// source subscription is disposed. When the source fails or completes, every subscriber receives it and the
  /// connection is over. Either way the next subscriber starts a new connection, which runs the source again: a
  /// cold signal's work runs once per connection, not once per subscriber.
  ///
  /// **Replay scope: the connection.** What is replayed is what the source sent on the live connection; a new
  /// connection starts with nothing to replay (RxSwift's `.whileConnected`). For values kept for every later
  /// subscriber, whatever happens, use ``replayLazily()``, which never disconnects.
  ///
  /// Each subscriber attaches, and the first one connects, at once, on the subscribing thread, before `subscribe`
  /// returns: a subscriber never misses a value the source sends after that (guarantee 5). The source's own
  /// subscribe body, if it has one, follows the subscription scheduler.
  ///
  /// Connections never overlap: the source never has two subscriptions from one shared signal at once. A first
  /// subscriber that arrives while the last one's disconnect is still running on another thread (or from inside that
  /// disconnect) is attached at once, and its connection is made when the disconnect has returned, on that thread.
  ///
  /// ```swift
  /// let results = searchText.flattenMapLatest { query in search(query) }.share()
  /// let a = results.subscribeNext { print("list", $0) }   // connects: one search per query
  /// let b = results.subscribeNext { print("count", $0) }  // shares it
  /// a.dispose()
  /// b.dispose()  // the last subscriber left: disconnects
  /// results.subscribeNext { print("again", $0) }  // connects again
  /// ```
  ///
  /// The shared subscription ends a bounded loop's pause, as a subject does: it sends to every subscriber at the
  /// source's pace, and a `values(bufferingPolicy: .bounded(n))` loop among them counts what goes past `n` (the
  /// Interop article "Flow Control").
  ///
  /// - Parameters:
  ///   - replay: How many of the latest values the live connection replays to a new subscriber; 0 (the default)
  ///     replays none. Must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A reference-counted signal that shares one subscription to this one at a time.
  /// - Note: No ReactiveCocoa 2.5 counterpart: RAC's `-publish` and `-autoconnect`
  ///   (``MulticastConnection/autoconnect()``) share until the last subscriber leaves, then never connect again.
  ///   Combine's `share()` (with `replay` 0) and RxSwift's `share(replay:scope: .whileConnected)`. Combine's share
  ///   does not run the source again after it has finished: later subscribers receive the finish; this one, as
  ///   RxSwift's, starts a new connection.
  public func share(replay: Int = 0, file: StaticString = #fileID, line: UInt = #line) -> Signal<Value, Failure> {
    precondition(replay >= 0, "share(replay:): replay must not be negative", file: file, line: line)
    let storage = ShareStorage(source: self, replay: replay)
    return AnonymousSignal(nameSource: derivedName("share(replay: \(replay))")) { observer in
      storage.attach(observer)
    }
  }
}
