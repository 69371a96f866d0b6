extension Signal {
  /// Delivers every event on `scheduler`, in order; the source's work stays where it was.
  ///
  /// Each event is forwarded through `scheduler.schedule`, one block per event, so the subscriber runs on
  /// the scheduler (with it as ``Schedulers/current``) while the source keeps sending on its own thread. The
  /// events keep their order, failure and completion included. Disposing the result disposes the source
  /// and cancels the blocks that have not run: nothing is delivered afterwards.
  ///
  /// ```swift
  /// let worker = QueueScheduler(name: "worker")
  /// download.deliver(on: worker).subscribeNext({ data in parse(data) }, error: { showError($0) })
  /// // parse(_:) and showError(_:) run on the worker queue
  /// ```
  ///
  /// - Parameter scheduler: Where the events are delivered.
  /// - Returns: A signal with the same events, delivered on `scheduler`.
  /// - Note: ReactiveCocoa 2.5 `-deliverOn:`. RAC let scheduled blocks run after disposal (its subscriber
  ///   then dropped their events); here disposal cancels them, which also releases what they hold.
  @inlinable
  public func deliver(on scheduler: any Scheduler) -> Signal<Value, Failure> {
    AnonymousSignal { observer in
      DeliverStorage.attach(self, route: .scheduler(scheduler), observer: observer)
    }
  }

  /// Delivers every event on the main queue: at once when it arrives there with nothing waiting, otherwise
  /// queued behind the events already waiting.
  ///
  /// An event sent on the main queue while no earlier event waits is delivered synchronously, before the
  /// send returns, which spares a main-queue turn; any other event goes through ``Scheduler/main``. Either
  /// way the events keep their order. Disposing the result disposes the source and cancels the deliveries
  /// that have not run.
  ///
  /// ```swift
  /// // show(_:) and showAlert(_:) run on the main queue
  /// download.deliverOnMainThread().subscribeNext({ data in show(data) }, error: { showAlert($0) })
  /// ```
  ///
  /// "Main" is the main queue: on Linux its code may run on a thread other than the process's first one
  /// once `dispatchMain()` has been called (see ``Scheduler/main``).
  ///
  /// - Returns: A signal with the same events, delivered on the main queue.
  /// - Note: ReactiveCocoa 2.5 `-deliverOnMainThread`. An event sent from a main-queue callback of this very
  ///   signal is delivered right after the one in progress, in the same turn, where RAC queued it for a
  ///   later turn; the order is the same.
  @inlinable
  public func deliverOnMainThread() -> Signal<Value, Failure> {
    AnonymousSignal { observer in
      DeliverStorage.attach(self, route: .mainQueue, observer: observer)
    }
  }

  /// Subscribes to this signal on `scheduler`, so that its work and side effects run there.
  ///
  /// Subscribing to the result schedules the subscription to this signal on `scheduler`; its subscribe body
  /// then runs there, with `scheduler` as ``Schedulers/current``, and the events are delivered wherever the
  /// source sends them. Disposing the result — from any thread, before or after the subscription has run —
  /// cancels the scheduled subscription if it has not run, and disposes the source's subscription otherwise
  /// (at once, on the disposing thread, as RAC does). Nothing is delivered after disposal.
  ///
  /// ```swift
  /// let worker = QueueScheduler(name: "worker")
  /// expensiveQuery.subscribe(on: worker).deliverOnMainThread().subscribeNext { rows in show(rows) }
  /// // the query runs on the worker queue, show(_:) on the main queue
  /// ```
  ///
  /// - Parameter scheduler: Where the subscription, and with it the source's work, runs.
  /// - Returns: A signal with the same events, subscribed to on `scheduler`.
  /// - Note: ReactiveCocoa 2.5 `-subscribeOn:`.
  @inlinable
  public func subscribe(on scheduler: any Scheduler) -> Signal<Value, Failure> {
    AnonymousSignal { observer in
      let subscription = CompoundDisposable()
      // Events pass on the thread that sends them: the pause is carried, and a paused source resumes on
      // `scheduler`, where it first ran (see `Demand`).
      let guarded = Observer<Value, Failure>(
        raw: { kind, payload in subscription.isDisposed ? .stop : observer.raw(kind, payload) },
        demand: observer.demand)
      subscription.add(scheduler.schedule { subscription.add(self.attach(guarded)) })
      return subscription
    }
  }
}
