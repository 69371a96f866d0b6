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

  final override var attachesSubscriberBoxes: Bool {
    true
  }

  final override func attach(boxed box: consuming SubscriberBox) -> any Disposable {
    storage.attach(boxed: box)
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

  /// Sends `value` to every current subscriber once the bounded loops reading the subject have room for it: the
  /// ``sendNext(_:)`` of a producer that can wait.
  ///
  /// A loop that reads the subject with `values(bufferingPolicy: .bounded(n))` (AsyncSignalsInterop), directly or
  /// through operators that carry its pause (`map`, `filter`, …), holds this send back while `n` values wait for it:
  /// the send suspends, holding no thread and no lock, and resumes once the loop has taken its buffer down to half.
  /// With several such loops, the fullest one governs: the send waits until each has room. Every other subscriber —
  /// an unbounded or dropping loop, a `subscribeNext` — never holds it back. With none of those loops the send
  /// returns at once, costing one atomic load more than ``sendNext(_:)``; while bounded loops with room read the
  /// subject, one lock more.
  ///
  /// - The consuming task never waits on itself: a send from the task that runs a bounded loop of this subject (a
  ///   loop body sending back into the subject it reads) is not held back by that loop, which only that task could
  ///   make room in; it goes on, and the loop counts its excess in `overflowCount`. The loop's task is the one that
  ///   called its iterator's `next()` last, whichever task made the first call (a model may prime the iterator in
  ///   one task and loop in another). A send from another task that
  ///   the loop waits for — a child task the loop body awaits, say — does wait for the loop, which waits for it: a
  ///   cycle of the program's own, which the library cannot see or break. Cancel that task, or send from the loop's
  ///   own.
  /// - Loops of this subject that send back into it never wait on each other: a send whose wait would close a cycle
  ///   of waits among them (each loop full while its task waits in a send the other holds back) goes on, counted.
  ///   A cycle through another subject is the program's, as above.
  /// - Concurrent senders each look for room before they send, and again each time they are woken: the bound holds
  ///   to within one value per concurrent sender.
  /// - Cancellation: a sending task that is cancelled stops waiting, or does not wait at all, and sends `value` at
  ///   once: nothing is silently lost, and the loop counts what goes beyond its bound.
  /// - Termination: once the subject has terminated, the send returns ``SendResult/terminated`` at once and `value` is
  ///   ignored, as with ``sendNext(_:)``; senders waiting when it terminates are resumed, and their values are ignored
  ///   too.
  /// - The end of the loops: once every bounded loop that has read the subject has ended, and none reads it now, the
  ///   send returns ``SendResult/loopsEnded`` (its value still goes to the other subscribers, if any): the producer
  ///   can stop, instead of producing for nobody. Senders waiting when the last loop ends are resumed and told so.
  ///   Otherwise it returns ``SendResult/sent``, as it does for a subject that has never had a bounded loop.
  /// - A replaying subject (``ReplaySubject``, ``BehaviorSubject``) replays its values to a new bounded loop at once,
  ///   as it subscribes (what goes beyond the bound is counted); the live sends then wait for that loop's room.
  /// - From a subscriber's callback there is no awaiting: use ``sendNext(_:)``, which never waits.
  ///
  /// Start the producer once the loop has subscribed, with ``Signal/doSubscribed(_:)``, so that it sends nothing
  /// before the loop is there to receive it; the result ends it when the loop ends:
  ///
  /// ```swift
  /// let lines = Subject<String, Never>()
  /// let fed = lines.doSubscribed {
  ///   Task {
  ///     for line in ["a", "b", "c", "d"] {
  ///       guard await lines.send(line) == .sent else { return }  // waits while two lines wait for the loop
  ///     }
  ///     lines.sendCompleted()
  ///   }
  /// }
  /// for await line in fed.values(bufferingPolicy: .bounded(2)) {
  ///   print(line)
  /// }
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Returns: Whether the bounded loops the send could wait for are still there (``SendResult/sent``), have all
  ///   ended (``SendResult/loopsEnded``), or the subject has terminated (``SendResult/terminated``). Discardable: a
  ///   producer that does not stop early ignores it.
  /// - Note: No counterpart in ReactiveCocoa 2.5, which has no flow control: `-[RACSubject sendNext:]` never waits
  ///   (``sendNext(_:)`` here). swift-async-algorithms' `AsyncChannel.send(_:)` (SAA-0016) suspends the same way,
  ///   until a consumer takes the value; Combine's `PassthroughSubject.send(_:)`, ReactiveSwift's
  ///   `Signal.Observer.send(value:)` and RxSwift's `PublishSubject.onNext(_:)` never wait. The result plays the part
  ///   of `AsyncStream.Continuation.YieldResult.terminated`.
  @inlinable
  @discardableResult
  public final nonisolated(nonsending) func send(_ value: Value) async -> SendResult {
    // The fast path: the subject has never had a bounded loop and has not terminated (one load), or no loop is full
    // (one lock): nothing to wait for.
    var word = storage.sendWord
    if SubjectStorage<Value, Failure>.hasBoundedSubscribers(word) && storage.hasFullBoundedSubscriber {
      await storage.room()
      word = storage.sendWord  // the loops may have ended, or the subject terminated, while it waited
    }
    storage.send(.next(value))
    return BoundedCount.result(word)
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
