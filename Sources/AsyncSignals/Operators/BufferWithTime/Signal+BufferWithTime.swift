extension Signal {
  /// Collects values into arrays: each array is sent `interval` after its first value arrived.
  ///
  /// The first value after a flush starts the clock; the values that arrive until `interval` has passed join
  /// it, and the array is then sent on `scheduler`. No time passes while nothing is buffered, and no empty
  /// array is ever sent. Completion sends what is buffered at once, then completes; a failure is sent at once
  /// and the buffered values are dropped. Disposing the result disposes the source and cancels the timer.
  ///
  /// ```swift
  /// let batches = logLines.buffer(time: .seconds(1), on: uploader)  // at most one upload per second
  /// ```
  ///
  /// - Parameters:
  ///   - interval: How long after its first value a buffer is sent; must not be negative.
  ///   - scheduler: The scheduler that times and sends the buffers; not the immediate scheduler, which
  ///     cannot wait without blocking.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Returns: A signal of the buffered values, in the order they arrived.
  /// - Note: ReactiveCocoa 2.5 `-bufferWithTime:onScheduler:`. RAC sent a `RACTuple`; here it is an array.
  @inlinable
  public func buffer(
    time interval: Duration, on scheduler: any Scheduler, file: StaticString = #fileID, line: UInt = #line
  ) -> Signal<[Value], Failure> {
    precondition(interval >= .zero, "buffer(time:on:): interval must not be negative", file: file, line: line)
    precondition(
      scheduler !== ImmediateScheduler.shared, "buffer(time:on:): scheduler must not be the immediate scheduler",
      file: file, line: line)
    return AnonymousSignal { observer in
      BufferStorage.attach(self, interval: interval, limit: .max, scheduler: scheduler, observer: observer)
    }
  }
}
