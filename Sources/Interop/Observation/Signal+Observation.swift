import AsyncSignals
import Observation

// `RACObserve(object, keyPath)` for the Observation module: a signal of what an `@Observable` object's properties
// (or any Observation-tracked state) read, current value first. How the object's going away is noticed is
// described in ObservedExpression.swift; the iteration of `Observations` goes through the bridge every async
// sequence takes (`AsyncSequence.signal(isolatedTo:)`).

extension Signal where Failure == Never {
  /// A signal of `object[keyPath: keyPath]`: the current value, then the value after each change, on the main
  /// actor; it completes when the object goes away.
  ///
  /// For an `@Observable` object that lives on the main actor, such as a SwiftUI model. Each subscription reads
  /// the property on the main actor, in a job of its own: first at once after `subscribe` returns (so the current
  /// value arrives asynchronously, not before `subscribe` returns as `RACObserve` sent it), then after each change.
  ///
  /// - Values after a change: Observation reports a change in the property's `willSet`, before it has the new
  ///   value; the property is read again in a later main-actor job, once the code that changed it has reached a
  ///   suspension point. So a value is always one the property held after a change, never the old one.
  /// - Coalescing: the changes made in one main-actor job (between two `await`s), to this property or to any
  ///   other the value reads, make one value, read after all of them. Values are not compared: changes that leave
  ///   the value as it was still send it again (use `distinctUntilChanged()` to drop repeats).
  /// - Threads: every value and the completion are sent on the main actor, one at a time.
  /// - Lifetime: the signal and its subscriptions hold `object` weakly. When it is deinitialised each subscription
  ///   completes, in a main-actor job soon after — also when the path's first step is untracked and leads to an
  ///   object that lives on (`\.account.name`, `account` a `let`), as the signal watches the object's own
  ///   `ObservationRegistrar` (an `Observable` written by hand without one is seen to go at the next change of what
  ///   the path read); a subscription that starts after it has gone completes without a value. Disposing a
  ///   subscription ends it, as for any signal.
  /// - Subscriptions: each has an observation of its own; several subscribers of one signal each get every value.
  /// - Untracked: a property Observation does not track (a `let`, an `@ObservationIgnored` one) can never change as
  ///   far as Observation knows: its value is sent, then the subscription completes.
  /// - Testing: each evaluation is work in progress for `TestScheduler.settle()` from the `willSet` that makes it
  ///   due until it has run (the Testing article, "Testing a view model").
  ///
  /// ```swift
  /// let model = SearchViewModel()
  /// let queries = Signal.observing(model, \.query)  // Signal<String, Never>
  /// queries.subscribeNext { print("query:", $0) }  // the current query, then each new one
  /// model.query = "swift"  // query: swift, in a later main-actor job
  /// ```
  ///
  /// Platforms: on Linux and from macOS, iOS, tvOS, watchOS and visionOS 26 each subscription iterates the
  /// Observation module's `Observations`. Earlier Apple releases (from the package's floor, macOS 15 and iOS 18)
  /// have only `withObservationTracking`, whose handler runs before the change: there the signal schedules a
  /// main-actor job from the handler and reads the property in that job, with the same timing, coalescing and
  /// lifetime. CI builds and tests on Linux only: that engine is compiled and tested there, but the branch that
  /// picks it on older Apple releases has been read, not run.
  ///
  /// - Parameters:
  ///   - object: The `@Observable` object; held weakly.
  ///   - keyPath: The property to observe; a path through several objects (`\.account.name`) observes each.
  /// - Returns: A signal of the property's values that completes when `object` goes away.
  /// - Note: ReactiveCocoa 2.5 `RACObserve(object, keyPath)` (`-rac_valuesForKeyPath:observer:`), for the
  ///   Observation module instead of KVO. As RACObserve's, the signal sends the current value first and completes
  ///   when the object is deallocated; unlike it, it sends that first value asynchronously, coalesces the changes
  ///   of one main-actor job, and never sends the value a `willSet` sees.
  @MainActor
  public static func observing<Root: AnyObject & Observable>(
    _ object: Root, _ keyPath: KeyPath<Root, Value>
  ) -> Signal<Value, Never> {
    mainActorObservation(ObservedExpression(object) { $0[keyPath: keyPath] })
  }

  /// A signal of an expression over an `@Observable` object: its current value, then its value after each change of
  /// what it reads, on the main actor; it completes when the object goes away.
  ///
  /// As `Signal.observing(object, keyPath)`, for a value computed from several properties, or from other
  /// `@Observable` objects the object leads to. `value` is called on the main actor with the object, in a job of its
  /// own for each value; every tracked property it reads is observed, and the changes to them made in one main-actor
  /// job make one value. The object is held weakly and passed in: a closure that captured it strongly would keep it
  /// alive, and the signal would never complete.
  ///
  /// The subscriptions complete in a main-actor job soon after the object is deinitialised, even when `value` also
  /// reads another object that lives on: the signal watches the object's own `ObservationRegistrar`, which the
  /// `@Observable` macro stores in it. (An `Observable` written by hand that keeps no registrar among its stored
  /// properties is seen to go only at the next change of what `value` read.) A value that reads nothing tracked is
  /// sent, then the subscription completes: Observation can never ask for it again.
  ///
  /// ```swift
  /// let model = SearchViewModel()
  /// let summary = Signal.observing(model) { model in
  ///   model.isSearching ? "searching…" : "\(model.results.count) results"
  /// }
  /// summary.subscribeNext { print($0) }  // "0 results", then a value per main-actor job that changes either
  /// ```
  ///
  /// - Parameters:
  ///   - object: The object the value is computed from; held weakly.
  ///   - value: Computes the value from the object, on the main actor.
  /// - Returns: A signal of the values that completes when `object` goes away.
  /// - Note: ReactiveCocoa 2.5 `RACObserve` of several key paths combined with `+combineLatest:reduce:`; here one
  ///   closure reads them all, and a change to several in one main-actor job is one value, not one per property.
  @MainActor
  public static func observing<Root: AnyObject & Observable>(
    _ object: Root, reading value: @escaping @MainActor (Root) -> Value
  ) -> Signal<Value, Never> {
    mainActorObservation(ObservedExpression(object, value))
  }

  /// A signal of any expression over Observation-tracked state: its current value, then its value after each
  /// change of what it reads, evaluated and sent in the closure's own isolation.
  ///
  /// Each subscription iterates the Observation module's `Observations` over `value`: the closure is called once at
  /// once after `subscribe` returns, and again after each change of any tracked property it read; the changes made
  /// in one job of the closure's isolation (between two suspension points) make one value, read after all of them.
  ///
  /// - Isolation: a closure written on the main actor is called there, and its values are sent there; one written
  ///   in an actor's method that uses `self` runs on that actor; a closure in a nonisolated context is called, and
  ///   its values sent, off every actor, on the global concurrent executor. Only an isolated closure gets the "after all the
  ///   changes of one job" guarantee: state changed from other threads while a nonisolated closure reads it may be
  ///   read mid-change.
  /// - Lifetime: the signal holds the closure and what it captures. It has no end of its own: a subscription ends
  ///   when it is disposed. To observe an object without keeping it alive, capture it weakly, or use
  ///   `Signal.observing(object) { … }`, which completes when the object goes away.
  ///
  /// ```swift
  /// let model = SearchViewModel()
  /// let cart = CartModel()
  /// let badge = Signal.observing { "\(model.results.count) results, \(cart.items.count) in the cart" }
  /// badge.subscribeNext { print($0) }  // on the main actor, where the closure was written
  /// ```
  ///
  /// Available on Linux and from macOS, iOS, tvOS, watchOS and visionOS 26, where the Observation module has
  /// `Observations`: an expression in an arbitrary isolation cannot be re-read with `withObservationTracking` alone.
  /// On earlier Apple releases, observe an object on the main actor with `Signal.observing(object) { … }`.
  ///
  /// - Parameter value: The expression; it inherits the isolation of the context it is written in.
  /// - Returns: A signal of its values that never completes.
  /// - Note: ReactiveCocoa 2.5 `RACObserve` on any KVO-compliant path, extended to any expression; Swift's
  ///   `Observations` (SE-0475) as a signal.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  public static func observing(
    @_inheritActorContext _ value: @escaping @isolated(any) @Sendable () -> Value
  ) -> Signal<Value, Never> {
    Signal.defer {
      let observations = Observations(value)
      guard let actor = value.isolation else { return observations.signal }
      return observations.signal(isolatedTo: actor)
    }
  }

  /// The signal of a main-actor expression: `Observations` where the platform has it, otherwise a loop over
  /// `withObservationTracking`.
  @MainActor
  static func mainActorObservation(_ expression: ObservedExpression<Value>) -> Signal<Value, Never> {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      return iteratingObservations(expression)
    } else {
      return ObservationTrackingLoop.signal(expression)
    }
  }

  /// Each subscription iterates an `Observations` of its own over `expression` on the main actor, and completes when
  /// the expression finds its object gone, or when an evaluation tracked nothing.
  ///
  /// One `Observations` per subscription: their iterators would otherwise share one set of waiters and one "changed"
  /// flag, and a change could reach one subscription twice and another never (issue 27).
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @MainActor
  static func iteratingObservations(_ expression: ObservedExpression<Value>) -> Signal<Value, Never> {
    Signal.create(withDemand: { subscriber, demand in
      let due = DueEvaluation()  // the first evaluation is due from now
      let iteration = IterationTask()
      // Started in a main-actor job of its own (after `subscribe` returns), and run at once in that job up to its first
      // suspension: no hop through the global executor, which blocking code elsewhere may keep busy.
      MainActorJobs.enqueueOnMainActor {
        iteration.start {
          // Not counted work as a whole: each evaluation's value counts in the epoch it was due in (below).
          MainActorJobs.asCounted(nil) {
            Task.immediate { @MainActor in
              await iterate(expression, into: subscriber, demand: demand, due: due)
              due.end()
            }
          }
        }
      }
      return ActionDisposable {
        iteration.cancel()
        due.end()
      }
    })
  }

  /// One subscription's iteration, on the main actor: evaluate, send, wait for room if the consumer is full, then
  /// for the next change.
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @MainActor
  private static func iterate(
    _ expression: ObservedExpression<Value>, into subscriber: any Subscriber<Value, Never>, demand: Demand?,
    due: DueEvaluation
  ) async {
    let observation = observations(of: expression, due: due)
    var iterator = observation.values.makeAsyncIterator()
    while let value = await iterator.next(isolation: MainActor.shared) {
      if Task.isCancelled { return }
      if let demand, !demand.hasRoom {
        due.pause()
        await demand.room()
        due.resume()
        if Task.isCancelled { return }
      }
      MainActorJobs.asCounted(observation.reading.value.epoch) { subscriber.sendNext(value) }
      due.sent()
      if !observation.reading.value.tracked {
        // Nothing Observation tracks was read: no change will ever ask for this value again.
        subscriber.sendCompleted()
        return
      }
    }
    subscriber.sendCompleted()
  }

  /// The `Observations` of one subscription, made on the main actor. (Its closure is written in this main-actor
  /// function, so it inherits the main actor: a `@MainActor` closure literal converted to `Observations`'
  /// `@isolated(any)` closure outside the main actor crashes Swift 6.3.1's code generation or miscompiles.)
  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @MainActor
  private static func observations(
    of expression: ObservedExpression<Value>, due: DueEvaluation
  ) -> (values: Observations<Value, Never>, reading: MainActorBox<(tracked: Bool, epoch: UInt64?)>) {
    let trigger = ObservationTrigger()
    let reading = MainActorBox<(tracked: Bool, epoch: UInt64?)>((true, nil))
    let values = Observations<Value, Never>.untilFinished {
      let epoch = due.evaluating()
      trigger.track()
      switch expression.read(onChange: { due.markDue() }, onGone: { due.markDue(); trigger.pull() }) {
      case .gone:
        return .finish
      case .value(let value, let tracked):
        reading.value = (tracked, epoch)
        return .next(value)
      }
    }
    return (values, reading)
  }
}

/// A value that main-actor code shares between a closure and its caller.
@MainActor
final class MainActorBox<Value> {
  var value: Value

  init(_ value: Value) { self.value = value }
}

/// The task of one subscription's iteration, started in a later job: cancelled at once if the subscription was
/// disposed before it started.
final class IterationTask: Sendable {
  private let state = LockedState<(task: Task<Void, Never>?, cancelled: Bool)>((nil, false))  // guards both

  /// Starts the task unless the subscription has been disposed.
  func start(_ make: () -> Task<Void, Never>) {
    guard !state.withLock({ $0.cancelled }) else { return }
    let task = make()
    let cancelled = state.withLock { state -> Bool in
      state.task = task
      return state.cancelled
    }
    if cancelled { task.cancel() }
  }

  func cancel() {
    let task = state.withLock { state -> Task<Void, Never>? in
      state.cancelled = true
      return state.task
    }
    task?.cancel()
  }
}
