import Synchronization

/// Shares one subscription to a source among many subscribers, through a subject.
///
/// Subscribers attach to ``signal`` (the subject), which sends nothing until ``connect()`` subscribes the subject
/// to the source — once, however many times and from however many threads `connect()` is called. Disposing the
/// connection's disposable disposes that one subscription; the connection never subscribes again, and the subject
/// is left as it is (not terminated). When the source terminates, so does the subject, and with it every
/// subscriber. Make one with ``Signal/publish()`` or ``Signal/multicast(_:)``.
///
/// ```swift
/// let request = Signal<Data, URLError>.create { subscriber in
///   print("sending request")  // once, however many subscribers
///   subscriber.sendNext(Data())
///   subscriber.sendCompleted()
///   return nil
/// }
/// let connection = request.multicast(ReplaySubject())
/// connection.connect()
/// connection.signal.subscribeNext({ print("first", $0) }, error: { _ in })
/// connection.signal.subscribeNext({ print("second", $0) }, error: { _ in })
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACMulticastConnection` (`signal`, `-connect`, `-autoconnect`). Its initialiser was
///   private in RAC and is internal here.
public final class MulticastConnection<Value: Sendable, Failure: Error>: Sendable {
  /// The subject that subscribers attach to; it sends nothing before ``connect()``.
  ///
  /// ```swift
  /// let connection = ticks.publish()
  /// connection.signal.subscribeNext { print($0) }
  /// connection.connect()
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `signal`.
  public let signal: Signal<Value, Failure>
  private let source: Signal<Value, Failure>
  private let subject: any Subscriber<Value, Failure>
  /// Set by the one `connect()` that subscribes.
  private let hasConnected = Atomic<Bool>(false)
  /// The connection's disposable, returned by every `connect()`; its inner is the source subscription.
  private let connection = SerialDisposable()

  init<S: Signal<Value, Failure> & Subscriber<Value, Failure>>(source: Signal<Value, Failure>, subject: S) {
    self.source = source
    self.subject = subject
    self.signal = subject
  }

  /// Subscribes the subject to the source, the first time it is called.
  ///
  /// Atomic: the first caller subscribes; every other caller, on any thread, returns at once — without waiting
  /// for that subscription to be made — with the same disposable. Disposing it ends the shared subscription (at
  /// once, or as soon as it has been made) and the connection never reconnects.
  ///
  /// ```swift
  /// let connection = ticks.publish()
  /// connection.signal.subscribeNext { print($0) }
  /// let sharing = connection.connect()
  /// sharing.dispose()  // stops the shared subscription for good
  /// ```
  ///
  /// - Returns: The connection's disposable, the same on every call.
  /// - Note: ReactiveCocoa 2.5 `-connect`.
  @discardableResult
  public func connect() -> any Disposable {
    if hasConnected.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
      connection.inner = source.subscribe(subject)
    }
    return connection
  }

  /// A signal that connects when it gets its first subscriber and disposes the connection when its subscriber
  /// count returns to zero.
  ///
  /// Each subscription attaches to ``signal`` and then calls ``connect()``; it counts until it is disposed, or
  /// terminates, or its subscriber stops (as `take(_:)` does). Once the count has returned to zero the connection
  /// is disposed for good: later subscribers are attached to the subject but the source is not subscribed again.
  /// Each subscription attaches and connects at once, before `subscribe` returns, on the subscribing thread, so a
  /// subscriber never misses a value the shared subscription sends after `subscribe` returns (guarantee 5); the
  /// source's own subscribe body, if it has one, follows the subscription scheduler when `connect()` subscribes.
  ///
  /// ```swift
  /// let shared = location.publish().autoconnect()
  /// let a = shared.subscribeNext { print("a", $0) }  // connects
  /// let b = shared.subscribeNext { print("b", $0) }
  /// a.dispose()
  /// b.dispose()                                      // disconnects, for good
  /// ```
  ///
  /// - Returns: The reference-counted signal. Each call makes a new count.
  /// - Note: ReactiveCocoa 2.5 `-autoconnect`, including its "never reconnects". A deliberate difference: RAC
  ///   built it on `+createSignal:`, so that from a background thread the attachment waited for the subscription
  ///   scheduler and a later subscriber could miss values; here it attaches at once.
  public func autoconnect() -> Signal<Value, Failure> {
    let subscribers = LockedState(0)  // guards this autoconnect signal's subscriber count
    return AnonymousSignal { observer in
      subscribers.withLock { $0 += 1 }
      let release = ActionDisposable {
        if subscribers.withLock({ count -> Int in
          count -= 1
          return count
        }) == 0 {
          self.connection.dispose()
        }
      }
      let subscription = self.signal.attach { event in
        let flow = observer(event)
        if event.isTerminating || flow == .stop { release.dispose() }
        return flow
      }
      self.connect()
      return CompoundDisposable([subscription, release])
    }
  }
}
