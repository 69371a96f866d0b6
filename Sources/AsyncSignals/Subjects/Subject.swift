/// A hot signal that is also a subscriber: whatever is sent to it goes to its current subscribers.
///
/// A subject has no replay: a subscriber receives what is sent after it subscribed. Sends may come from any
/// threads at once; they are delivered one at a time, to every subscriber in the same order (guarantee 1), and a
/// sender waits while another thread is delivering, as RAC's subscribers make it. A subscriber may send to the
/// subject, subscribe to it or dispose from its callback: a value sent from a callback is delivered — to every
/// subscriber — once the value in progress has reached them all, so no subscriber sees the two out of order
/// (guarantee 6). The first `sendError` or `sendCompleted` terminates the subject: its subscribers receive it,
/// later subscribers receive it at once, later sends are ignored, and the subscriptions the subject made as a
/// subscriber (see ``didSubscribe(with:)``) are disposed. Disposing a subscription removes that subscriber and
/// releases what it captured.
///
/// ```swift
/// let clicks = Subject<Int, Never>()
/// clicks.subscribeNext { print("clicked", $0) }
/// clicks.sendNext(1)  // clicked 1
/// clicks.sendCompleted()
/// ```
///
/// ``ReplaySubject``, ``BehaviorSubject`` and ``GroupedSignal`` are subjects too, as in RAC: they add replay or a
/// key, and share everything else.
///
/// - Note: ReactiveCocoa 2.5 `RACSubject`. Unlike RAC's subject, which forgets that it terminated (so a
///   late subscriber waits forever and later sends still reach it), this one remembers its terminal event,
///   as RAC's successors do; and a send from a callback no longer overtakes the value in progress on its way to
///   the later subscribers.
public class Subject<Value: Sendable, Failure: Error>: Signal<Value, Failure>, Subscriber, @unchecked Sendable {
  // guarded by: immutability — `storage` is a `let`, and guards its own state (see SubjectStorage.swift); the
  // base class stores only a `let`. Subclasses (all in this module) add only `let`s.
  @usableFromInline
  let storage: SubjectStorage<Value, Failure>

  /// Creates a subject with no subscribers.
  ///
  /// ```swift
  /// let clicks = Subject<Void, Never>()
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `+[RACSubject subject]`.
  public convenience init() {
    self.init(storage: SubjectStorage(capacity: 0))
  }

  /// Creates a subject on `storage`: how the subclasses choose their replay.
  init(storage: SubjectStorage<Value, Failure>) {
    self.storage = storage
    super.init(name: "")
  }

  /// The number of current subscribers.
  ///
  /// A subscriber counts from the moment it is attached until it is disposed, terminates or stops; handy in tests
  /// to check that a subscription was released.
  ///
  /// ```swift
  /// let subject = Subject<Int, Never>()
  /// let subscription = subject.subscribeNext { _ in }
  /// subscription.dispose()
  /// print(subject.subscriberCount)  // 0
  /// ```
  ///
  /// - Note: Not in ReactiveCocoa 2.5 `RACSubject`, which kept its subscribers private.
  public final var subscriberCount: Int {
    storage.subscriberCount
  }

  final override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    storage.attach(observer)
  }

  /// Sends `value` to every current subscriber, in subscription order.
  ///
  /// Ignored once the subject has terminated. Called from a subscriber's callback, the value is delivered after
  /// the value in progress has reached every subscriber; from another thread, it waits for that delivery.
  ///
  /// ```swift
  /// subject.sendNext(1)
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Note: ReactiveCocoa 2.5 `-[RACSubject sendNext:]`.
  @inlinable
  public final func sendNext(_ value: Value) {
    storage.send(.next(value))
  }

  /// Terminates the subject with `error`: every current subscriber receives it, later subscribers receive it at once,
  /// later sends are ignored, and the subscriptions it made as a subscriber are disposed.
  ///
  /// ```swift
  /// let pages = Subject<Page, APIError>()
  /// pages.sendError(APIError())  // every subscriber receives it; later sends are ignored
  /// ```
  ///
  /// - Parameter error: The failure.
  /// - Note: ReactiveCocoa 2.5 `-[RACSubject sendError:]`, except that the subject remembers it terminated.
  @inlinable
  public final func sendError(_ error: Failure) {
    storage.send(.error(error))
  }

  /// Terminates the subject with completion: every current subscriber receives it, later subscribers receive it at
  /// once, later sends are ignored, and the subscriptions it made as a subscriber are disposed.
  ///
  /// ```swift
  /// subject.sendCompleted()
  /// ```
  ///
  /// - Note: ReactiveCocoa 2.5 `-[RACSubject sendCompleted]`, except that the subject remembers it terminated.
  @inlinable
  public final func sendCompleted() {
    storage.send(.completed)
  }

  /// Keeps `disposable`, a subscription made with this subject as its subscriber, to dispose it when the
  /// subject terminates (at once if it already has); forgets it as soon as it is disposed, so that a subject fed
  /// by any number of short subscriptions keeps only the live ones.
  ///
  /// ``Signal/subscribe(_:)`` calls it; you rarely need to.
  ///
  /// ```swift
  /// clicks.subscribe(subject)  // disposed when subject terminates
  /// ```
  ///
  /// - Parameter disposable: The subscription's disposable.
  /// - Note: ReactiveCocoa 2.5 `-[RACSubject didSubscribeWithDisposable:]`, which also removes a disposed one.
  public final func didSubscribe(with disposable: any Disposable) {
    storage.subscribed(with: disposable)
  }
}
