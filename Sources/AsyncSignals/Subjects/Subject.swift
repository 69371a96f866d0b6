/// A hot signal that is also a subscriber: whatever is sent to it goes to its current subscribers.
///
/// A subject has no replay: a subscriber receives what is sent after it subscribed. Sends may come from any
/// threads at once; each subscriber still receives one event at a time (guarantee 1), and a sender waits
/// for a subscriber that is busy with an earlier event, as RAC's subscribers make it. The subject delivers
/// with its own lock released, so a subscriber may send to it, subscribe to it or dispose from its callback.
/// The first `sendError` or `sendCompleted` terminates the subject: its subscribers receive it, later
/// subscribers receive it at once, later sends are ignored, and the subscriptions the subject made as a
/// subscriber (see ``didSubscribe(with:)``) are disposed. Disposing a subscription removes that subscriber.
///
/// ```swift
/// let clicks = Subject<Int, Never>()
/// clicks.subscribeNext { print("clicked", $0) }
/// clicks.sendNext(1)  // clicked 1
/// clicks.sendCompleted()
/// ```
///
/// - Note: ReactiveCocoa 2.5 `RACSubject`. Unlike RAC's subject, which forgets that it terminated (so a
///   late subscriber waits forever and later sends still reach it), this one remembers its terminal event,
///   as RAC's successors do.
public final class Subject<Value: Sendable, Failure: Error>: Signal<Value, Failure>, Subscriber, SinkOwner,
  @unchecked Sendable
{
  // guarded by: `state`, a `LockedState`; the base class stores only a `let`.
  @usableFromInline
  let state = LockedState(SubjectState())

  /// Creates a subject with no subscribers.
  public init() {
    super.init(name: "")
  }

  /// The number of current subscribers.
  public var subscriberCount: Int {
    state.withLock { $0.subscribers.count }
  }

  override func attach(_ observer: Observer<Value, Failure>) -> any Disposable {
    let sink = Sink(observer, owner: self)
    let terminal = state.withLock { state -> SubjectState.Terminal? in
      if let terminal = state.terminal { return terminal }
      state.subscribers.append(sink)
      return nil
    }
    switch terminal {
    case nil: break
    case .completed?: sink.sendCompleted()
    case .failed(let error)?: sink.sendError(error as! Failure)
    }
    return sink
  }

  func sinkDidDispose(_ sink: SinkCore) {
    state.withLock { $0.subscribers.remove(sink) }
  }

  /// Sends `value` to every current subscriber, in subscription order.
  ///
  /// - Parameter value: The value.
  @inlinable
  public func sendNext(_ value: Value) {
    let subscribers = state.withLock { state in state.isTerminated ? [] : state.subscribers.slots }
    withUnsafePointer(to: value) { payload in
      for case let sink? in subscribers { sink.deliver(.next, UnsafeRawPointer(payload)) }
    }
  }

  /// Terminates the subject with `error`, sending it to every current subscriber.
  ///
  /// - Parameter error: The failure.
  public func sendError(_ error: Failure) {
    guard let subscribers = terminate(with: .failed(error)) else { return }
    withUnsafePointer(to: error) { payload in
      for case let sink? in subscribers { sink.deliver(.error, UnsafeRawPointer(payload)) }
    }
  }

  /// Terminates the subject, sending completion to every current subscriber.
  public func sendCompleted() {
    guard let subscribers = terminate(with: .completed) else { return }
    for case let sink? in subscribers { sink.deliver(.completed, nil) }
  }

  /// Keeps `disposable`, a subscription made with this subject as its subscriber, to dispose it when the
  /// subject terminates (at once if it already has).
  ///
  /// - Parameter disposable: The subscription's disposable.
  public func didSubscribe(with disposable: any Disposable) {
    let inserted = state.withLock { $0.upstream.insert(disposable) }
    if !inserted { disposable.dispose() }
  }

  /// Records the terminal event; returns the subscribers to tell, or `nil` if the subject had terminated.
  private func terminate(with terminal: SubjectState.Terminal) -> ContiguousArray<SinkCore?>? {
    let taken = state.withLock { state -> (ContiguousArray<SinkCore?>, DisposableBag.Children)? in
      guard state.terminal == nil else { return nil }
      state.terminal = terminal
      return (state.subscribers.removeAll(), state.upstream.takeAll())
    }
    guard let (subscribers, upstream) = taken else { return nil }
    upstream.disposeAll()
    return subscribers
  }
}

/// A subject's state. Not generic, so that sending never needs generic metadata (see Core/Observer.swift).
@usableFromInline
struct SubjectState: Sendable {
  /// A terminal event without its static types.
  @usableFromInline
  enum Terminal: Sendable {
    case completed
    case failed(any Error)
  }

  @usableFromInline var subscribers = SubscriberList()
  @usableFromInline var terminal: Terminal?
  var upstream = DisposableBag()

  /// Inlinable: `sendNext` reads it under the lock on every send.
  @inlinable
  var isTerminated: Bool { terminal != nil }

  init() {}
}
