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
      SynchronousSignal.attachSynchronous(observer) { observer in
        for element in sequence {
          if observer.sendNext(element) == .stop { return }  // the subscription has had enough
        }
        _ = observer.sendCompleted()
      }
    }
  }
}
