/// A subject that remembers the values sent to it, and its terminal event, and replays them to each new
/// subscriber before the live events.
///
/// It keeps the latest `capacity` values (all of them by default). The buffer is trimmed when a value is
/// recorded, BEFORE the value is delivered, so a subscriber that joins during a delivery — from a callback or
/// from another thread — is replayed the latest `capacity` values, never one more. Replay and live delivery are
/// serialised: a subscriber that joins while other threads send receives every value exactly once, in the order
/// the subject recorded them, which is the order every other subscriber receives them in ("live order equals
/// replay order"). A value sent from a callback is delivered after the value in progress has reached every
/// subscriber. After `sendError` or `sendCompleted`, later subscribers are replayed the kept values and then the
/// terminal event; later sends are ignored, and the subscriptions the subject made as a subscriber are disposed.
///
/// A subscriber attaches at once, on the subscribing thread, whether a scheduler is current or not: the replay has
/// been delivered, and the subscriber receives every later value, by the time `subscribe` returns (guarantee 5).
/// Disposing the subscription removes the subscriber and releases what it captured.
///
/// ```swift
/// let messages = ReplaySubject<String, Never>(capacity: 2)
/// messages.sendNext("a")
/// messages.sendNext("b")
/// messages.sendNext("c")
/// messages.subscribeNext { print($0) }  // b, c — then every later value
/// ```
///
/// The lock held while callbacks run is the subject's delivery lock, described in SubjectStorage.swift; the
/// subject's state lock is never held while calling out.
///
/// - Note: ReactiveCocoa 2.5 `RACReplaySubject` (`+replaySubjectWithCapacity:`, `+subject`,
///   `RACReplaySubjectUnlimitedCapacity`). RAC trimmed the buffer after delivering a value, so a subscriber that
///   joined during that delivery was replayed `capacity + 1` values, and a value sent from a callback reached
///   later subscribers ahead of the value in progress; both are fixed here. RAC also replayed on the subscription
///   scheduler, so that from a background thread the values sent before the replay ran could be trimmed away
///   unseen; here the replay is at once (a deliberate difference).
public class ReplaySubject<Value: Sendable, Failure: Error>: Subject<Value, Failure>, @unchecked Sendable {
  // guarded by: `Subject` (this subclass adds no stored properties).

  /// The capacity that never trims: every value is kept.
  ///
  /// ```swift
  /// let everything = ReplaySubject<Int, Never>(capacity: ReplaySubject<Int, Never>.unlimitedCapacity)
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `RACReplaySubjectUnlimitedCapacity`.
  public static var unlimitedCapacity: Int { .max }

  /// Creates a replay subject that keeps the latest `capacity` values.
  ///
  /// ```swift
  /// let everything = ReplaySubject<Int, Never>()
  /// let latest = ReplaySubject<Int, Never>(capacity: 1)
  /// ```
  ///
  /// - Parameters:
  ///   - capacity: How many values to keep; ``unlimitedCapacity`` (the default) keeps all of them, and
  ///     0 keeps none (only the terminal event is replayed). Must not be negative.
  ///   - file: The file a failed precondition names; leave the default, the caller's.
  ///   - line: The line a failed precondition names; leave the default, the caller's.
  /// - Note: ReactiveCocoa 2.5 `+replaySubjectWithCapacity:`.
  public init(capacity: Int = ReplaySubject.unlimitedCapacity, file: StaticString = #fileID, line: UInt = #line) {
    precondition(capacity >= 0, "ReplaySubject(capacity:): capacity must not be negative", file: file, line: line)
    super.init(storage: SubjectStorage(capacity: capacity))
  }

  /// Creates a replay subject on `storage` (a behaviour subject's). Not an override of `Subject.init(storage:)`:
  /// overriding every designated initialiser would inherit `Subject()`, and `ReplaySubject()` would then make a
  /// subject that replays nothing.
  init(replayStorage storage: SubjectStorage<Value, Failure>) {
    super.init(storage: storage)
  }
}
