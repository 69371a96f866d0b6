/// An event a ``TestRecorder`` received, with the virtual time at which it arrived.
///
/// The time is how far the ``TestScheduler``'s clock had moved from its start when the event arrived: `.zero` for an
/// event sent before the clock first moved. Two recorded events are equal when their times and their events are, so
/// a whole history is checked in one comparison, written with ``next(_:_:)``, ``error(_:_:)`` and ``completed(_:)``:
///
/// ```swift
/// let scheduler = TestScheduler()
/// let typed = Subject<String, Never>()
/// let searches = scheduler.record(typed.throttle(.milliseconds(300), on: scheduler))
/// typed.sendNext("s")
/// typed.sendNext("sw")
/// typed.sendCompleted()
/// scheduler.advance(by: .seconds(1))
/// print(searches.events == [.next(.zero, "sw"), .completed(.zero)])  // true: completion flushes the latest at once
/// ```
///
/// Its description is the Swift that makes it (`.next(.milliseconds(300), "sw")`), so a failed `#expect` shows what
/// was recorded in the form of the expectation.
///
/// - Note: No ReactiveCocoa 2.5 counterpart (its test scheduler records nothing). RxTest's `Recorded<Event<Element>>`,
///   whose time is an integer count of virtual ticks; here it is a `Duration` of the test scheduler's clock.
public struct Recorded<Value, Failure: Error> {
  /// How far the test scheduler's clock had moved from its start when the event arrived.
  ///
  /// ```swift
  /// let first = recorder.events.first
  /// print(first?.time ?? .zero)  // 0.3 seconds, say
  /// ```
  public let time: Duration

  /// The event.
  ///
  /// ```swift
  /// let values = recorder.events.compactMap(\.event.value)
  /// ```
  public let event: Event<Value, Failure>

  /// A recorded `event` that arrived at `time`.
  ///
  /// ```swift
  /// let expected = Recorded<Int, Never>(time: .seconds(1), event: .next(1))
  /// ```
  ///
  /// - Parameters:
  ///   - time: How far the test scheduler's clock had moved from its start.
  ///   - event: The event.
  public init(time: Duration, event: Event<Value, Failure>) {
    self.time = time
    self.event = event
  }

  /// A value that arrived at `time`: an expected entry of ``TestRecorder/events``.
  ///
  /// ```swift
  /// #expect(recorder.events == [.next(.zero, 1), .next(.milliseconds(300), 2)])
  /// ```
  ///
  /// - Parameters:
  ///   - time: How far the test scheduler's clock had moved from its start.
  ///   - value: The value.
  /// - Returns: The recorded value.
  public static func next(_ time: Duration, _ value: Value) -> Recorded {
    Recorded(time: time, event: .next(value))
  }

  /// A failure that arrived at `time`: an expected entry of ``TestRecorder/events``.
  ///
  /// ```swift
  /// #expect(replies.events == [.error(.seconds(5), TimeoutError())])
  /// ```
  ///
  /// - Parameters:
  ///   - time: How far the test scheduler's clock had moved from its start.
  ///   - error: The failure.
  /// - Returns: The recorded failure.
  public static func error(_ time: Duration, _ error: Failure) -> Recorded {
    Recorded(time: time, event: .error(error))
  }

  /// A completion that arrived at `time`: an expected entry of ``TestRecorder/events``.
  ///
  /// ```swift
  /// #expect(recorder.events == [.next(.zero, 1), .completed(.seconds(1))])
  /// ```
  ///
  /// - Parameter time: How far the test scheduler's clock had moved from its start.
  /// - Returns: The recorded completion.
  public static func completed(_ time: Duration) -> Recorded {
    Recorded(time: time, event: .completed)
  }
}

extension Recorded: Sendable where Value: Sendable {}
extension Recorded: Equatable where Value: Equatable, Failure: Equatable {}
extension Recorded: Hashable where Value: Hashable, Failure: Hashable {}

extension Recorded: CustomStringConvertible, CustomDebugStringConvertible {
  /// The Swift that makes this entry: `.next(.milliseconds(300), "sw")`, `.completed(.seconds(1))`.
  ///
  /// A failed `#expect(recorder.events == [...])` prints each side with it, so the recorded history reads as the
  /// expectation is written; a value and a failure are shown as `String(reflecting:)` shows them (a string in quotes).
  ///
  /// ```swift
  /// print(Recorded<String, Never>.next(.milliseconds(300), "sw"))  // .next(.milliseconds(300), "sw")
  /// ```
  public var description: String {
    let time = Self.swiftLiteral(time)
    switch event {
    case .next(let value): return ".next(\(time), \(String(reflecting: value)))"
    case .error(let error): return ".error(\(time), \(String(reflecting: error)))"
    case .completed: return ".completed(\(time))"
    }
  }

  /// The same as ``description``: the Swift that makes this entry.
  ///
  /// ```swift
  /// print(String(reflecting: Recorded<Int, Never>.completed(.seconds(1))))  // .completed(.seconds(1))
  /// ```
  public var debugDescription: String {
    description
  }

  /// `duration` as the `Duration` factory that reads best: the largest unit that divides it exactly.
  static func swiftLiteral(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    guard attoseconds % 1_000_000_000 == 0 else { return "\(duration)" }  // finer than a nanosecond: not ours
    let nanoseconds = Int128(seconds) * 1_000_000_000 + Int128(attoseconds / 1_000_000_000)
    if nanoseconds == 0 { return ".zero" }
    for (unit, name) in [(1_000_000_000, "seconds"), (1_000_000, "milliseconds"), (1_000, "microseconds")]
    where nanoseconds % Int128(unit) == 0 {
      return ".\(name)(\(nanoseconds / Int128(unit)))"
    }
    return ".nanoseconds(\(nanoseconds))"
  }
}
