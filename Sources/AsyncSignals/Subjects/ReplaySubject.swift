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
/// As in RAC, a subscriber attaches on the subscription scheduler: at once when a scheduler is current (inside a
/// scheduler's block, or on the main queue), otherwise on a background scheduler (guarantee 5). Disposing the
/// subscription removes the subscriber, releases what it captured, and cancels a replay still waiting to run.
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
///   later subscribers ahead of the value in progress; both are fixed here.
public final class ReplaySubject<Value: Sendable, Failure: Error>: Signal<Value, Failure>, Subscriber,
  @unchecked Sendable
{
  // guarded by: immutability — `storage` is a `let` and guards its own state (see SubjectStorage.swift); the base
  // class stores only a `let`.
  @usableFromInline
  let storage: SubjectStorage<Value, Failure>

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
  /// - Parameter capacity: How many values to keep; ``unlimitedCapacity`` (the default) keeps all of them, and
  ///   0 keeps none (only the terminal event is replayed). Must not be negative.
  /// - Note: ReactiveCocoa 2.5 `+replaySubjectWithCapacity:`.
  public init(capacity: Int = ReplaySubject.unlimitedCapacity) {
    precondition(capacity >= 0, "ReplaySubject(capacity:): capacity must not be negative")
    storage = SubjectStorage(capacity: capacity, schedulesReplay: true)
    super.init(name: "")
  }

  /// The number of current subscribers.
  ///
  /// A subscriber counts from the moment it is attached until it is disposed, terminates or stops; handy in tests
  /// to check that a subscription was released.
  ///
  /// ```swift
  /// let history = ReplaySubject<Int, Never>()
  /// let subscription = history.subscribeNext { _ in }
  /// subscription.dispose()
  /// print(history.subscriberCount)  // 0
  /// ```
  ///
  /// - Note: Not in ReactiveCocoa 2.5 `RACReplaySubject`, which kept its subscribers private.
  public var subscriberCount: Int {
    storage.subscriberCount
  }

  override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    storage.attach(observer)
  }

  /// Sends `value` to every current subscriber, in subscription order, and records it for replay.
  ///
  /// Ignored once the subject has terminated. Called from a subscriber's callback, the value is delivered after
  /// the value in progress has reached every subscriber; from another thread, it waits for that delivery.
  ///
  /// ```swift
  /// history.sendNext(1)
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Note: ReactiveCocoa 2.5 `-[RACReplaySubject sendNext:]`.
  @inlinable
  public func sendNext(_ value: Value) {
    storage.send(.next(value))
  }

  /// Terminates the subject with `error`: every current subscriber receives it, later subscribers are replayed the kept
  /// values, then it, later sends are ignored, and the subscriptions it made as a subscriber are disposed.
  ///
  /// ```swift
  /// history.sendError(error)
  /// ```
  ///
  /// - Parameter error: The failure.
  /// - Note: ReactiveCocoa 2.5 `-[RACReplaySubject sendError:]`, except that the subject remembers it terminated.
  @inlinable
  public func sendError(_ error: Failure) {
    storage.send(.error(error))
  }

  /// Terminates the subject with completion: every current subscriber receives it, later subscribers are replayed the
  /// kept values, then it, later sends are ignored, and the subscriptions it made as a subscriber are disposed.
  ///
  /// ```swift
  /// history.sendCompleted()
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-[RACReplaySubject sendCompleted]`, except that the subject remembers it terminated.
  @inlinable
  public func sendCompleted() {
    storage.send(.completed)
  }

  /// Keeps `disposable`, a subscription made with this subject as its subscriber, to dispose it when the
  /// subject terminates (at once if it already has).
  ///
  /// ``Signal/subscribe(_:)`` calls it; you rarely need to.
  ///
  /// ```swift
  /// source.subscribe(history)  // disposed when history terminates
  /// ```
  ///
  /// - Parameter disposable: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-[RACReplaySubject didSubscribeWithDisposable:]`.
  public func didSubscribe(with disposable: any Disposable) {
    storage.subscribed(with: disposable)
  }
}
