import Synchronization

extension Signal {
  /// A cold signal that sends the elements of `sequence`, in order, then completes; each subscription walks the
  /// sequence anew.
  ///
  /// The elements are sent synchronously, one after the other, and the walk stops as soon as the subscription
  /// has had enough: `take(3)` of a huge (or endless) sequence reads three elements and completes. Subscribing
  /// follows guarantee 5 like any root signal: on a scheduler, on the main queue or in a task the elements have
  /// all been delivered when `subscribe` returns; from a plain thread the walk runs on the background scheduler,
  /// and disposing before it starts means it never runs. The signal holds `sequence`, which must be `Sendable`
  /// and should be cheap to iterate more than once.
  ///
  /// ```swift
  /// Signal<Int, Never>.from(1...5).filter { $0.isMultiple(of: 2) }.subscribeNext { print($0) }  // 2, 4
  /// Signal<Int, Never>.from(1...).map { $0 * $0 }.take(3).subscribeNext { print($0) }  // 1, 4, 9: reads 3
  /// ```
  ///
  /// - Parameter sequence: The elements to send.
  /// - Returns: A cold signal of the elements; it never fails, whatever its `Failure` type.
  /// - Note: ReactiveCocoa 2.5 `rac_sequence.signal`, with a deliberate difference: RAC's sequence signal sends
  ///   from a background scheduler, one element per scheduled block (``MemoizedSequence/signal(on:)`` keeps that
  ///   form); this one sends synchronously, as `+createSignal:` with a loop would, at a few nanoseconds per
  ///   element.
  @inlinable
  public static func from<S: Sequence & Sendable>(_ sequence: S) -> Signal<Value, Failure> where S.Element == Value {
    // Made where it is called, with the sequence's type concrete: the walk is specialised there, and costs no
    // generic metadata lookup per element.
    AnonymousSignal { observer in
      if let demand = observer.demand {
        // A bounded consumer at the end of a chain that carries the pause: walk at its pace.
        return PausableWalk.attach(sequence, to: observer, demand: demand)
      }
      return SynchronousSignal.attachSynchronous(observer) { observer in
        for element in sequence {
          if observer.sendNext(element) == .stop { return }  // the subscription has had enough
        }
        _ = observer.sendCompleted()
      }
    }
  }
}

/// A walk over an iterator that sends each element to one subscription and pauses while the bounded consumer at
/// the end of the chain has no room (see `Demand`): `Signal.from` under flow control.
///
/// Pausing is returning: a walk that finds no room gives up the walk, registers a resumption with the demand,
/// re-checks (room made in between is never missed), and returns from every call. The resumption schedules the
/// walk again on the scheduler that ran it first (in a task, the subscription scheduler, which runs it at once on
/// the thread that made room), so a paused walk holds no thread, and never runs on two threads at once: only
/// the thread that takes `owner` walks. Delivery goes through a sink, as a `create` body's does, for serial
/// delivery and disposal from any thread.
@usableFromInline
final class PausableWalk<Walked: Sequence & Sendable, Failure: Error>: @unchecked Sendable
where Walked.Element: Sendable {
  // guarded by: `owner`, an atomic — only the thread that took it (acquiring) touches `iterator`, and it gives it
  // back (releasing) before another thread can take it; `sink`, `demand` and `resumeOn` are `let`s.
  @usableFromInline var iterator: Walked.Iterator
  @usableFromInline let sink: Sink<Walked.Element, Failure>
  @usableFromInline let demand: Demand
  /// Where a resumption runs the walk again: where it ran first.
  @usableFromInline let resumeOn: any Scheduler
  @usableFromInline let owner = Atomic<Bool>(false)

  @inlinable
  init(_ sequence: Walked, sink: Sink<Walked.Element, Failure>, demand: Demand, resumeOn: any Scheduler) {
    self.iterator = sequence.makeIterator()
    self.sink = sink
    self.demand = demand
    self.resumeOn = resumeOn
  }

  /// Subscribes: walks at once where a subscribe body would run at once (guarantee 5), otherwise on the
  /// background scheduler.
  @inlinable
  static func attach(
    _ sequence: Walked, to observer: Observer<Walked.Element, Failure>, demand: Demand
  ) -> any Disposable {
    let sink = Sink.make(observer)
    let atOnce = CurrentScheduler.scheduler ?? (CurrentScheduler.isInTask ? SubscriptionScheduler.shared : nil)
    let walk = PausableWalk(sequence, sink: sink, demand: demand, resumeOn: atOnce ?? QueueScheduler.background)
    if CurrentScheduler.subscribeAtOnce({ walk.run() }) == nil,
      let scheduled = QueueScheduler.background.schedule({ walk.run() })
    {
      sink.addChild(scheduled)
    }
    return sink
  }

  @inlinable
  func run() {
    guard owner.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
    while !sink.isDisposed {
      if !demand.hasRoom {
        owner.store(false, ordering: .releasing)
        if demand.resume(whenRoom: { [self] in resumeOn.schedule { self.run() } }, runsProducer: true) != nil { return }
        // Room was made between the check and the registration: walk on, unless a resumption already does.
        guard owner.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return }
        continue
      }
      guard let element = iterator.next() else {
        sink.sendCompleted()
        return
      }
      sink.sendNext(element)
    }
  }
}
