import Foundation

// Logging operators: logEvents, logNext, logError and logCompleted.
//
// Each line names the logged signal by its `description` (its name, or its type when it has none; see
// `named(_:)` and `RAC_DEBUG_SIGNAL_NAMES` in `Core/SignalName.swift`) and goes, by default, to standard
// error, where RAC's `NSLog` wrote; pass `to:` to send the lines elsewhere (a logger, a test's array). The
// line is written before the event is forwarded. Plain forwarding otherwise: nothing is built unless an
// event of a logged kind passes.

extension Signal {
  /// Logs every event, then forwards it.
  ///
  /// Lines read `<signal> next: <value>`, `<signal> error: <failure>` and `<signal> completed`. Events pass
  /// through unchanged; disposing the result disposes the upstream subscription. The result keeps this
  /// signal's name.
  ///
  /// ```swift
  /// search.named("search").logEvents().subscribeNext({ _ in }, error: { _ in })  // search next: …, search completed
  /// ```
  ///
  /// - Parameter output: Receives each line, without a trailing newline; `nil`, the default, writes the
  ///   line and a newline to standard error.
  /// - Returns: A signal with the same events.
  /// - Note: ReactiveCocoa 2.5 `-logAll`, which wrote with `NSLog`.
  public func logEvents(to output: (@Sendable (String) -> Void)? = nil) -> Signal<Value, Failure> {
    log(next: true, error: true, completed: true, to: output)
  }

  /// Logs each value, then forwards it.
  ///
  /// Lines read `<signal> next: <value>`. Events pass through unchanged; disposing the result disposes the
  /// upstream subscription.
  ///
  /// ```swift
  /// clicks.named("clicks").logNext().subscribeNext { _ in }  // clicks next: …
  /// ```
  ///
  /// - Parameter output: Receives each line; `nil`, the default, writes it to standard error.
  /// - Returns: A signal with the same events.
  /// - Note: ReactiveCocoa 2.5 `-logNext`.
  public func logNext(to output: (@Sendable (String) -> Void)? = nil) -> Signal<Value, Failure> {
    log(next: true, error: false, completed: false, to: output)
  }

  /// Logs the failure, then forwards it.
  ///
  /// The line reads `<signal> error: <failure>`. Events pass through unchanged; disposing the result
  /// disposes the upstream subscription.
  ///
  /// ```swift
  /// upload.logError().subscribeError { _ in }  // Signal<(), APIError> error: …
  /// ```
  ///
  /// - Parameter output: Receives the line; `nil`, the default, writes it to standard error.
  /// - Returns: A signal with the same events.
  /// - Note: ReactiveCocoa 2.5 `-logError`.
  public func logError(to output: (@Sendable (String) -> Void)? = nil) -> Signal<Value, Failure> {
    log(next: false, error: true, completed: false, to: output)
  }

  /// Logs completion, then forwards it.
  ///
  /// The line reads `<signal> completed`. Events pass through unchanged; disposing the result disposes the
  /// upstream subscription.
  ///
  /// ```swift
  /// countdown.named("countdown").logCompleted().subscribeCompleted {}  // countdown completed
  /// ```
  ///
  /// - Parameter output: Receives the line; `nil`, the default, writes it to standard error.
  /// - Returns: A signal with the same events.
  /// - Note: ReactiveCocoa 2.5 `-logCompleted`.
  public func logCompleted(to output: (@Sendable (String) -> Void)? = nil) -> Signal<Value, Failure> {
    log(next: false, error: false, completed: true, to: output)
  }

  private func log(
    next: Bool, error: Bool, completed: Bool, to output: (@Sendable (String) -> Void)?
  ) -> Signal<Value, Failure> {
    let write = output ?? writeToStandardError
    return AnonymousSignal(nameSource: nameSource) { observer in
      self.attach(carryingDemandOf: observer) { event in
        switch event {
        case .next(let value): if next { write("\(self) next: \(value)") }
        case .error(let failure): if error { write("\(self) error: \(failure)") }
        case .completed: if completed { write("\(self) completed") }
        }
        return observer(event)
      }
    }
  }
}

/// Writes `line` and a newline to standard error in one write, so that lines from several threads do not
/// interleave.
@Sendable
private func writeToStandardError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
