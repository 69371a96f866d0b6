import Dispatch

extension MemoizedSequence {
  /// A signal that sends the elements on `scheduler`, one scheduled block per element, then completes.
  ///
  /// Each subscription walks the sequence anew (elements already computed are not computed again). The blocks
  /// are chained with ``Scheduler/scheduleRecursive(_:)``, so the stack stays the same depth however long the
  /// sequence is, even on the immediate scheduler. Disposing the subscription stops the walk.
  ///
  /// ```swift
  /// MemoizedSequence([1, 2, 3]).signal(on: QueueScheduler(name: "numbers")).subscribeNext { print($0) }
  /// ```
  ///
  /// - Parameter scheduler: Where the elements are read and sent.
  /// - Returns: A cold signal of the elements.
  /// - Note: ReactiveCocoa 2.5 `-signalWithScheduler:`.
  @inlinable
  public func signal(on scheduler: any Scheduler) -> Signal<Element, Never> {
    // Inlinable, so that the walk is specialised where the signal is made, with `Element` concrete: unspecialised,
    // each element cost several generic metadata lookups (a third of the time, measured for issue 13's W1a).
    AnonymousSignal { observer in
      // Built on the sink directly, rather than `create`, so that the walk sees a disposal or a `.stop` at once,
      // even on a scheduler that runs the whole walk before `scheduleRecursive` returns.
      let sink = Sink.make(observer)
      let remaining = LockedState(self)  // the walk's position; its blocks run one at a time
      let demand = observer.demand
      let walk: @Sendable () -> Void = {
        sink.addChild(
          scheduler.scheduleRecursive { reschedule in
            guard !sink.isDisposed else { return }
            // A bounded consumer that is full: pause; its resumption schedules the next step (see `Demand`).
            if let demand, !demand.hasRoom, demand.resume(whenRoom: reschedule, runsProducer: true) != nil { return }
            guard let head = MemoizedSequence.popFirst(remaining) else {
              sink.sendCompleted()
              return
            }
            sink.sendNext(head)
            reschedule()
          })
      }
      // Subscription scheduling as in `create` (guarantee 5).
      if CurrentScheduler.subscribeAtOnce(walk) == nil, let scheduled = QueueScheduler.background.schedule(walk) {
        sink.addChild(scheduled)
      }
      return sink
    }
  }

  /// Removes and returns the first element of the sequence in `remaining`, or `nil` at its end.
  ///
  /// An element already evaluated is taken in one lock round trip, without building the step's `(head, tail)`
  /// box. A lazy node is evaluated outside the lock, as its thunk is user code (STYLE.md: never call out while
  /// holding a lock); only the walk's own blocks, which run one at a time, move `remaining`.
  @inlinable
  static func popFirst(_ remaining: LockedState<MemoizedSequence>) -> Element? {
    let (evaluated, lazy) = remaining.withLock { sequence -> (Element?, MemoNode<Element>?) in
      switch sequence.storage {
      case .array(let elements, let offset):
        guard offset < elements.count else { return (nil, nil) }
        sequence = MemoizedSequence(storage: .array(elements, offset: offset + 1), isEager: sequence.isEager)
        return (elements[offset], nil)
      case .node(let node):
        return (nil, node)
      }
    }
    guard let lazy else { return evaluated }
    guard case .cons(let head, let tail) = lazy.value else { return nil }
    remaining.withLock { $0 = tail }
    return head
  }

  /// A signal that sends the elements on a new background scheduler, then completes.
  ///
  /// ```swift
  /// MemoizedSequence(["reactive", "signals"]).signal().subscribeNext { print($0) }  // on a background queue
  /// ```
  ///
  /// - Returns: A cold signal of the elements.
  /// - Note: ReactiveCocoa 2.5 `-signal`.
  public func signal() -> Signal<Element, Never> {
    signal(on: QueueScheduler(name: "AsyncSignals.MemoizedSequence.signal"))
  }
}

extension Signal where Failure == Never {
  /// The values of this signal as a sequence: subscribes now, and reading a value not yet sent blocks until it
  /// is sent (or the signal completes, which ends the sequence).
  ///
  /// Values are kept until the sequence reads them, and each is then memoised in the sequence. The subscription
  /// ends when the signal completes, or when nothing holds the sequence any more. Never read it on a thread the
  /// signal needs in order to send — for example the main queue, for a signal that delivers there: it would wait
  /// forever.
  ///
  /// ```swift
  /// let lines = fileLines.sequence   // starts reading the file now
  /// for line in lines { print(line) } // blocks for each line not yet read
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `sequence` (RACSignalSequence), for signals that cannot fail. RAC ended the
  ///   sequence silently on an error; for a failing signal use ``Signal/resultSequence``.
  public var sequence: MemoizedSequence<Value> {
    BlockingBuffer.sequence(of: self) { event in
      switch event {
      case .next(let value): return (value, false)
      case .completed: return (nil, true)
      }
    }
  }
}

extension Signal {
  /// The events of this signal as a sequence of results: each value as `.success`, then the failure, if any,
  /// as a last `.failure`. Subscribes now; reading an element not yet sent blocks until it is.
  ///
  /// Otherwise as ``Signal/sequence``: values are kept until read, and the subscription ends with the signal or
  /// when nothing holds the sequence any more.
  ///
  /// ```swift
  /// var received = Data()
  /// for result in download.resultSequence {
  ///   switch result {
  ///   case .success(let chunk): received.append(chunk)
  ///   case .failure(let error): print("failed:", error)
  ///   }
  /// }
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `sequence`, which ended silently on an error; here the failure is the last
  ///   element (guarantee 9: nothing is dropped silently).
  public var resultSequence: MemoizedSequence<Result<Value, Failure>> {
    BlockingBuffer.sequence(of: self) { event in
      switch event {
      case .next(let value): return (.success(value), false)
      case .error(let error): return (.failure(error), true)
      case .completed: return (nil, true)
      }
    }
  }
}

/// The hand-off between a signal and the sequence that blocks on it: values wait here until the sequence reads
/// them, in order. Each element of the sequence is read once (it is memoised), so each buffered value is taken
/// once and dropped from here.
final class BlockingBuffer<Element: Sendable>: Sendable {
  private struct State: Sendable {
    var elements = Ring<Element>()
    var ended = false
  }

  private let state = LockedState(State())  // guards the buffered elements and the end
  /// Counts the buffered elements, plus one once the signal has ended.
  private let available = DispatchSemaphore(value: 0)
  /// The subscription to the signal, disposed when the sequence goes away.
  private let subscription = SerialDisposable()

  deinit {
    subscription.dispose()
  }

  /// Subscribes to `signal` now; `convert` gives each event's element (if any) and whether it ends the sequence.
  static func sequence<Value, Failure>(
    of signal: Signal<Value, Failure>,
    _ convert: @escaping @Sendable (Event<Value, Failure>) -> (element: Element?, ends: Bool)
  ) -> MemoizedSequence<Element> {
    let buffer = BlockingBuffer()
    buffer.subscription.inner = signal.attach { [weak buffer] event in
      guard let buffer else { return .stop }
      let (element, ends) = convert(event)
      buffer.received(element, ends: ends)
      return ends ? .stop : .proceed
    }
    return MemoizedSequence(generating: { buffer.next() })
  }

  private func received(_ element: Element?, ends: Bool) {
    let signals = state.withLock { state -> Int in
      guard !state.ended else { return 0 }
      var count = 0
      if let element {
        state.elements.append(element)
        count += 1
      }
      if ends {
        state.ended = true
        count += 1
      }
      return count
    }
    for _ in 0..<signals { available.signal() }
  }

  /// The next element, waiting for it; `nil` once the signal has ended and every element has been read.
  private func next() -> Element? {
    available.wait()
    let element = state.withLock { $0.elements.popFirst() }
    if element == nil { available.signal() }  // keep the end available to any later reader
    return element
  }
}
