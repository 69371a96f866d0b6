extension Signal {
  /// Collects values into arrays of `count`: each array is sent as soon as it is full.
  ///
  /// A full array is sent at once, on the thread that delivered its last value. Completion sends what is
  /// buffered, fewer than `count` values, at once, then completes; a failure is sent at once and the buffered
  /// values are dropped. No empty array is ever sent. Disposing the result disposes the source and drops the
  /// buffered values. Plain forwarding: no lock, and no allocation per value beyond the arrays themselves.
  ///
  /// ```swift
  /// let rows = bytes.buffer(count: 16)  // [[UInt8]] of 16 bytes each; the last row may be shorter
  /// ```
  ///
  /// - Parameters:
  ///   - count: How many values fill an array; must be positive.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of arrays of `count` values, in the order they arrived, and a last shorter one.
  /// - Note: No ReactiveCocoa 2.5 counterpart (RAC buffers only by time, ``buffer(time:on:file:line:)``).
  ///   Combine's `collect(_:)` with a count, which also sends the last shorter array on completion and drops it
  ///   on failure; ReactiveSwift's `collect(count:)`; RxSwift's `buffer(timeSpan:count:scheduler:)` without its
  ///   time span.
  @inlinable
  public func buffer(count: Int, file: StaticString = #fileID, line: UInt = #line) -> Signal<[Value], Failure> {
    precondition(count > 0, "buffer(count:): count must be positive", file: file, line: line)
    return AnonymousSignal(nameSource: derivedName("buffer(count: \(count))")) { observer in
      let buffer = ObserverState(BufferAccumulator<Value>(limit: count))
      // At most one array per value, on the sending thread: carries the pause (see `Demand`).
      return self.attach(carryingDemandOf: observer) { event in
        switch event {
        case .next(let value):
          guard let full = buffer.value.append(value) else { return .proceed }
          return observer.sendNext(full)
        case .error(let error):
          buffer.value.removeAll()
          return observer.sendError(error)
        case .completed:
          if let rest = buffer.value.flush(), observer.sendNext(rest) == .stop { return .stop }
          return observer.sendCompleted()
        }
      }
    }
  }

  /// Collects values into arrays: each array is sent when it holds `count` values, or `interval` after its
  /// first value arrived, whichever comes first.
  ///
  /// The first value after a flush starts the clock. An array that fills up is sent at once, on the thread that
  /// delivered its last value, and its timer is cancelled; one whose interval passes first is sent then, on
  /// `scheduler`, with however many values it has. No time passes while nothing is buffered, and no empty array is
  /// ever sent. Completion sends what is buffered at once, then completes; a failure is sent at once and the
  /// buffered values are dropped. Disposing the result disposes the source, cancels the timer and drops the
  /// buffered values. The engine of ``buffer(time:on:file:line:)``, with a count.
  ///
  /// ```swift
  /// let batches = logLines.buffer(time: .seconds(1), count: 100, on: uploader)  // at most 100 lines a batch
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long after its first value an array is sent if it has not filled up; must not be
  ///     negative, as for ``buffer(time:on:file:line:)``.
  ///   - count: How many values fill an array; must be positive.
  ///   - scheduler: The scheduler that times the arrays and sends those whose time ran out; not the immediate
  ///     scheduler, which cannot wait without blocking.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of the buffered values, in the order they arrived, at most `count` at a time.
  /// - Note: ReactiveCocoa 2.5 `-bufferWithTime:onScheduler:` with a count, which RAC does not have. RxSwift's
  ///   `buffer(timeSpan:count:scheduler:)`, Combine's `collect(.byTimeOrCount(_:_:_:))`. A deliberate
  ///   difference: their time windows follow each other from the subscription on, and RxSwift's send an empty
  ///   array for a window without values (and at completion); here, as in RAC, an array's clock starts with its
  ///   first value, and no empty array is sent.
  @inlinable
  public func buffer(
    time interval: Duration, count: Int, on scheduler: any Scheduler, file: StaticString = #fileID,
    line: UInt = #line
  ) -> Signal<[Value], Failure> {
    precondition(interval >= .zero, "buffer(time:count:on:): interval must not be negative", file: file, line: line)
    precondition(count > 0, "buffer(time:count:on:): count must be positive", file: file, line: line)
    precondition(
      scheduler !== ImmediateScheduler.shared,
      "buffer(time:count:on:): scheduler must not be the immediate scheduler", file: file, line: line)
    return AnonymousSignal { observer in
      BufferStorage.attach(self, interval: interval, limit: count, scheduler: scheduler, observer: observer)
    }
  }
}
