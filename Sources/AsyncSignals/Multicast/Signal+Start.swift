extension Signal {
  /// Runs `body` on `scheduler` once, at the first subscription, and replays what it sends to every
  /// subscriber.
  ///
  /// `body` receives a subscriber to send its results to; its work belongs to no subscription, so disposing a
  /// subscription never stops it. Subscriptions are made on `scheduler`: the replay, and whatever `body` sends
  /// from `scheduler`, are delivered there.
  ///
  /// ```swift
  /// let thumbnail = Signal<Image, DecodeError>.startLazily(on: QueueScheduler(name: "decode")) { subscriber in
  ///   switch decode(imageData) {
  ///   case .success(let image): subscriber.sendNext(image); subscriber.sendCompleted()
  ///   case .failure(let error): subscriber.sendError(error)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - scheduler: Where `body` runs and subscriptions are made.
  ///   - body: The work; it runs at most once.
  /// - Returns: A signal that starts the work on its first subscription.
  /// - Note: ReactiveCocoa 2.5 `+startLazilyWithScheduler:block:`. Disposing a subscription here releases that
  ///   subscriber (RAC kept it until the work ended); the work itself still runs on.
  public static func startLazily(
    on scheduler: any Scheduler, _ body: @escaping @Sendable (any Subscriber<Value, Failure>) -> Void
  ) -> Signal<Value, Failure> {
    let connection = Signal.create { subscriber in
      body(subscriber)
      return nil
    }.multicast(ReplaySubject())
    return AnonymousSignal { observer in
      let subscription = CompoundDisposable()
      let guarded = Observer<Value, Failure>(raw: { kind, payload in
        subscription.isDisposed ? .stop : observer.raw(kind, payload)
      })
      subscription.add(
        scheduler.schedule {
          subscription.add(connection.signal.attach(guarded))
          connection.connect()
        })
      return subscription
    }
  }

  /// Runs `body` on `scheduler` right away, once, and replays what it sends to every subscriber.
  ///
  /// As ``startLazily(on:_:)``, but the work is started now rather than at the first subscription.
  ///
  /// ```swift
  /// let config = Signal<Config, Never>.startEagerly(on: QueueScheduler(name: "io")) { subscriber in
  ///   subscriber.sendNext(loadConfig())  // starts now, whether or not anyone subscribes
  ///   subscriber.sendCompleted()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - scheduler: Where `body` runs and subscriptions are made.
  ///   - body: The work; it runs once.
  /// - Returns: A signal that replays the work's events.
  /// - Note: ReactiveCocoa 2.5 `+startEagerlyWithScheduler:block:` (and the deprecated `+start:`,
  ///   `+startWithScheduler:block:`, `+startWithScheduler:subjectBlock:`, which it replaces).
  public static func startEagerly(
    on scheduler: any Scheduler, _ body: @escaping @Sendable (any Subscriber<Value, Failure>) -> Void
  ) -> Signal<Value, Failure> {
    let signal = startLazily(on: scheduler, body)
    _ = signal.attach { _ in .proceed }  // starts the work; this subscription ends with it
    return signal
  }
}
