/// What `await subject.send(_:)` tells its producer: whether the loops it feeds are still there.
///
/// A producer that feeds a subject's bounded loops (`values(bufferingPolicy: .bounded(n))`, AsyncSignalsInterop) stops
/// when they have all ended, instead of reading on for nobody, and needs no `Task` kept to cancel it:
///
/// ```swift
/// let lines = Subject<String, Never>()
/// let fed = lines.doSubscribed {
///   Task {
///     for number in 1...1_000_000 {
///       guard await lines.send("line \(number)") == .sent else { return }  // every loop has ended
///     }
///     lines.sendCompleted()
///   }
/// }
/// for await line in fed.values(bufferingPolicy: .bounded(2)) {
///   if line == "line 3" { break }  // the producer's next send returns .loopsEnded
/// }
/// ```
///
/// - Note: No ReactiveCocoa 2.5 counterpart (its `-sendNext:` returns nothing). The role of `AsyncStream`'s
///   `Continuation.YieldResult.terminated`, which tells a producer that its consumer has gone.
public enum SendResult: Sendable, Hashable {
  /// The value was sent to the subject's subscribers, among them a bounded loop (or the subject has never had one).
  ///
  /// ```swift
  /// let lines = Subject<String, Never>()
  /// if await lines.send("next") == .sent { print("the loop is still reading") }
  /// ```
  case sent

  /// Every bounded loop that has read the subject has ended, and none reads it now: nothing is left that the send
  /// could have waited for. A `.bounded` delivery into an actor (`subscribeNext(isolatedTo:bufferingPolicy:)` and the
  /// other bounded forms) counts as a bounded loop. The value went to the subject's other subscribers, if it has any (an unbounded loop or a
  /// `subscribeNext` never holds a send back, so it does not count), and into a replaying subject's buffer. A new
  /// bounded loop that subscribes makes later sends `.sent` again.
  ///
  /// ```swift
  /// let lines = Subject<String, Never>()
  /// if await lines.send("next") == .loopsEnded { print("nobody reads the lines any more") }
  /// ```
  case loopsEnded

  /// The subject has terminated: the value was ignored, as a send after the terminal event always is.
  ///
  /// ```swift
  /// let lines = Subject<String, Never>()
  /// lines.sendCompleted()
  /// print(await lines.send("late") == .terminated)  // true
  /// ```
  case terminated
}
