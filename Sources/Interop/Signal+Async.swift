import AsyncSignals

extension Signal {
  /// A signal that runs an async function once per subscription and sends its result, then completes.
  ///
  /// Each subscription starts the function in a new detached task (`Task.detached`): it runs on the global
  /// concurrent executor, never on the subscriber's actor, and inherits neither its priority nor its
  /// task-local values. The result is sent from that task's thread (use a scheduler hop to move it). A thrown
  /// error becomes the signal's failure, typed. Disposing the subscription cancels the task; whatever the
  /// function returns or throws afterwards is ignored.
  ///
  /// ```swift
  /// func fetchProfile() async throws(APIError) -> Profile { … }
  /// let profile = Signal.async(fetchProfile)  // Signal<Profile, APIError>
  /// profile.subscribeNext({ show($0) }, error: { showError($0) })
  ///
  /// let answer = Signal<Int, Never>.async { await deepThought.compute() }
  /// ```
  ///
  /// Swift 6 infers `throws(any Error)` for a closure that contains `try`, so a closure for a signal with a
  /// typed failure names it: `{ () async throws(APIError) -> Profile in try await fetchProfile() }`. A
  /// function reference, as above, needs nothing.
  ///
  /// - Parameter operation: The work of one subscription; it should honour task cancellation.
  /// - Returns: A cold signal of one value.
  /// - Note: ReactiveCocoa 2.5 `+startLazilyWithScheduler:block:` run per subscription (RAC's
  ///   `+startEagerly…` is this signal, subscribed to once and replayed). Peers wrap a `Task` the same way
  ///   but start it on the subscriber's actor, or lose the typed failure.
  public static func async(
    _ operation: @escaping @Sendable () async throws(Failure) -> Value
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
  /// Each subscription starts `body` in a new detached task (`Task.detached`): it runs on the global
  /// concurrent executor, never on the subscriber's actor, and inherits neither its priority nor its
  /// task-local values. The subscriber may be sent to from there or from tasks `body` awaits; events are
  /// delivered one at a time (guarantee 1). When `body` returns the signal completes (unless it already
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
    _ body: @escaping @Sendable (_ subscriber: any Subscriber<Value, Failure>) async throws(Failure) -> Void
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

  /// A signal whose subscriptions each run `work` in a new detached task; disposing cancels the task.
  ///
  /// Detached on purpose: a task created with `Task { }` from the main actor would inherit it and run the
  /// work there, blocking it between suspension points (a known bug of a peer library's bridge).
  static func detachedTask(
    _ work: @escaping @Sendable (any Subscriber<Value, Failure>) async -> Void
  ) -> Signal<Value, Failure> {
    create { subscriber in
      let task = Task.detached { await work(subscriber) }
      return ActionDisposable { task.cancel() }
    }
  }
}
