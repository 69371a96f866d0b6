import AsyncSignals

extension Signal {
  /// A signal that runs an async function once per subscription and sends its result, then completes.
  ///
  /// Each subscription starts the function in a new detached task (`Task.detached`), which inherits neither the
  /// subscriber's priority nor its task-local values. Where the function runs is its own isolation, as with
  /// `Task`: a nonisolated function or closure literal (the default) runs on the global concurrent executor,
  /// never on the subscriber's actor; a `@MainActor` one runs on the main actor; for an actor instance, use
  /// `Signal.async(isolatedTo:_:)`. Detached is the default because a cold signal's work starts
  /// once per subscriber, from wherever each one subscribes: tying it to the actor that made the signal would
  /// queue every subscriber's work behind that actor. The result is sent from the task's thread (use a
  /// scheduler hop, or isolated delivery, to move it). A thrown
  /// error becomes the signal's failure, typed. Disposing the subscription cancels the task; whatever the
  /// function returns or throws afterwards is ignored.
  ///
  /// ```swift
  /// // func loadProfile() async throws(APIError) -> Profile
  /// let profile = Signal.async(loadProfile)  // Signal<Profile, APIError>
  /// profile.subscribeNext({ show($0) }, error: { showError($0) })
  ///
  /// let answer = Signal<Int, Never>.async { await deepThought.compute() }
  /// ```
  ///
  /// Swift 6 infers `throws(any Error)` for a closure that contains `try`, whatever type it is passed as: naming
  /// the failure (`Signal<Profile, APIError>.async { … }`) or annotating the result does not change that. So a
  /// closure for a signal with a typed failure names it in its own type:
  /// `{ () async throws(APIError) -> Profile in try await loadProfile() }`. A function reference, as above,
  /// needs nothing. The Structured Concurrency article's "Typed throws in async closures" has the other answers.
  ///
  /// - Parameter operation: The work of one subscription; it should honour task cancellation.
  /// - Returns: A cold signal of one value.
  /// - Note: ReactiveCocoa 2.5 `+startLazilyWithScheduler:block:` run per subscription (RAC's
  ///   `+startEagerly…` is this signal, subscribed to once and replayed). Peers wrap a `Task` the same way
  ///   but start it on the subscriber's actor, or lose the typed failure.
  public static func async(
    _ operation: @escaping @Sendable @isolated(any) () async throws(Failure) -> Value
  ) -> Signal<Value, Failure> {
    detachedTask { subscriber in
      do throws(Failure) {
        let value = try await operation()
        subscriber.sendNext(value)
        subscriber.sendCompleted()
      } catch {
        subscriber.sendError(error)
      }
    }
  }

  /// A signal whose subscriptions each run an async closure that sends values to the subscriber.
  ///
  /// Each subscription starts `body` in a new detached task (`Task.detached`), which inherits neither the
  /// subscriber's priority nor its task-local values; `body` runs in its own isolation, as in
  /// `Signal.async(_:)`: by default on the global concurrent executor, never on the subscriber's actor. The
  /// ``AsyncSubscriber`` it receives may be sent to from there or from tasks `body` awaits; events are
  /// delivered one at a time (guarantee 1). Its `await send(_:)` waits while a bounded consumer is full; its
  /// `sendNext(_:)` never waits. When `body` returns the signal completes (unless it already
  /// terminated); when it throws, the signal fails with the typed error. Disposing the subscription cancels
  /// the task and ignores whatever is sent afterwards.
  ///
  /// ```swift
  /// let pages = Signal<Page, APIError>.async { subscriber throws(APIError) in  // Swift 6 needs the type
  ///   var cursor: Cursor? = nil
  ///   repeat {
  ///     let page = try await api.page(after: cursor)
  ///     subscriber.sendNext(page)
  ///     cursor = page.next
  ///   } while cursor != nil && !Task.isCancelled
  /// }  // completes after the last page
  /// ```
  ///
  /// - Parameter body: The work of one subscription; it should honour task cancellation.
  /// - Returns: A cold signal.
  /// - Note: `Signal.create(_:)` (ReactiveCocoa 2.5 `+createSignal:`) with an async body, where the
  ///   returned disposable is the task's cancellation.
  public static func async(
    _ body: @escaping @Sendable @isolated(any) (_ subscriber: AsyncSubscriber<Value, Failure>) async throws(Failure)
      -> Void
  ) -> Signal<Value, Failure> {
    detachedTask { subscriber in
      do throws(Failure) {
        try await body(subscriber)
        subscriber.sendCompleted()
      } catch {
        subscriber.sendError(error)
      }
    }
  }

  /// A signal that runs an async function isolated to `actor` once per subscription and sends its result, then
  /// completes.
  ///
  /// As `Signal.async(_:)`, but the function runs in `actor`'s isolation and receives it `isolated`, so it
  /// reads and writes the actor's state with no `await` (each `await` inside lets other work of the actor run,
  /// as in any actor method). The task starts detached and hops onto the actor. The signal, and each
  /// subscription's task while it runs, hold `actor` strongly. Disposing the subscription cancels the task.
  ///
  /// ```swift
  /// actor Cache {
  ///   var pages: [Int: Page] = [:]
  ///   func page(_ number: Int) -> Signal<Page, APIError> {
  ///     Signal.async(isolatedTo: self) { cache throws(APIError) in
  ///       if let page = cache.pages[number] { return page }
  ///       let page = try await api.page(number)
  ///       cache.pages[number] = page
  ///       return page
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor whose isolation the function runs in.
  ///   - operation: The work of one subscription; it should honour task cancellation.
  /// - Returns: A cold signal of one value.
  /// - Note: ReactiveCocoa 2.5 `+startLazilyWithScheduler:block:` with an actor in place of the scheduler.
  public static func async<A: Actor>(
    isolatedTo actor: A, _ operation: @escaping @Sendable (isolated A) async throws(Failure) -> Value
  ) -> Signal<Value, Failure> {
    async { () async throws(Failure) -> Value in try await operation(actor) }
  }

  /// A signal whose subscriptions each run an async closure isolated to `actor` that sends values to the
  /// subscriber.
  ///
  /// As the subscriber form of `Signal.async(_:)`, but `body` runs in `actor`'s isolation and
  /// receives it `isolated`. The signal, and each subscription's task while it runs, hold `actor` strongly.
  ///
  /// ```swift
  /// actor Feed {
  ///   var pagesSent = 0
  ///   func firstPages() -> Signal<Page, APIError> {
  ///     Signal.async(isolatedTo: self) { feed, subscriber throws(APIError) in
  ///       for number in 1...3 {
  ///         subscriber.sendNext(try await api.page(number))
  ///         feed.pagesSent += 1  // the actor's state, no await
  ///       }
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - actor: The actor whose isolation `body` runs in.
  ///   - body: The work of one subscription; it sends to the subscriber and should honour task cancellation.
  /// - Returns: A cold signal.
  /// - Note: ReactiveCocoa 2.5 `+createSignal:` with asynchronous work on an actor.
  public static func async<A: Actor>(
    isolatedTo actor: A,
    _ body: @escaping @Sendable (isolated A, _ subscriber: AsyncSubscriber<Value, Failure>) async throws(Failure)
      -> Void
  ) -> Signal<Value, Failure> {
    async { (subscriber: AsyncSubscriber<Value, Failure>) async throws(Failure) -> Void in
      try await body(actor, subscriber)
    }
  }

  /// A signal whose subscriptions each run `work` in a new detached task; disposing cancels the task.
  ///
  /// Detached on purpose: a task created with `Task { }` from the main actor would inherit it and run the
  /// work there, blocking it between suspension points (a known bug of a peer library's bridge).
  ///
  /// `tracked`: async work started from a `TestScheduler`'s block, or from work one already tracks, is registered
  /// with that test scheduler before its task starts, and unregistered when the task ends, so that
  /// `TestScheduler.settle()` can wait for it (TrackedAsyncWork.swift). Async work started by one of the
  /// library's main-actor jobs counts with them (`MainActorJobs`) until its first event, or its end. The iteration of
  /// an async sequence passes `false`: a source that need not end is not work to wait for.
  static func detachedTask(
    tracked: Bool = true, _ work: @escaping @Sendable (AsyncSubscriber<Value, Failure>) async -> Void
  ) -> Signal<Value, Failure> {
    create(withDemand: { sink, demand in
      // Under a bounded consumer, the body's `send(_:)` suspends while it is full (flow control).
      let subscriber = AsyncSubscriber(sink, demand: demand)
      let task: Task<Void, Never>
      if tracked, let tracking = TrackedAsyncWork.begin() {
        task = Task.detached { await tracking.run { await work(subscriber) } }
      } else if tracked, MainActorJobs.countedEpoch != nil {
        // Started by one of the library's main-actor jobs (an observation's value, a binding's): counted with them,
        // in their epoch, until its first event, so that a chain main → task → main settles as one piece of work,
        // while a task that goes on sending (a poller) holds no later settle: what it sends later is new work.
        let counted = CountedWork(.asyncWork)
        let subscriber = AsyncSubscriber(FirstEventEndsCount(sink, counted), demand: demand)
        task = Task.detached {
          await MainActorJobs.$running.withValue(counted) { await work(subscriber) }
          counted.end()
        }
      } else {
        task = Task.detached { await work(subscriber) }
      }
      return ActionDisposable { task.cancel() }
    })
  }
}

/// The subscriber of a task that one of the library's main-actor jobs started: its first event ends the task's count
/// (`MainActorJobs`), once the event has been delivered, so that the work the event sets in motion (a binding's job)
/// is counted, in the task's epoch, before the task stops counting.
final class FirstEventEndsCount<Value: Sendable, Failure: Error>: Subscriber, Sendable {
  private let base: any Subscriber<Value, Failure>
  private let counted: CountedWork

  init(_ base: any Subscriber<Value, Failure>, _ counted: CountedWork) {
    self.base = base
    self.counted = counted
  }

  func sendNext(_ value: Value) {
    base.sendNext(value)
    counted.end()
  }

  func sendError(_ error: Failure) {
    base.sendError(error)
    counted.end()
  }

  func sendCompleted() {
    base.sendCompleted()
    counted.end()
  }

  func didSubscribe(with disposable: any Disposable) {
    base.didSubscribe(with: disposable)
  }
}
