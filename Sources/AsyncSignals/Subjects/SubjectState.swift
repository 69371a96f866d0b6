// The decisions of the engine every subject shares (SubjectStorage.swift): its state under the state lock.

/// What a subject decides for each input. Pure: no locks, no callouts.
@usableFromInline
struct SubjectState<Value: Sendable, Failure: Error>: Sendable {
  /// The number of values kept for replay: 0 for a plain subject, `Int.max` for an unlimited replay subject.
  @usableFromInline let capacity: Int
  @usableFromInline var buffer = Ring<Value>()
  @usableFromInline var terminal: Event<Value, Failure>?
  /// The subscribers' sinks. Not generic: delivery hands every sink the same payload pointer.
  @usableFromInline var subscribers: SubscriberList
  /// The subscriptions the subject made as a subscriber, disposed when it terminates.
  @usableFromInline var upstream = DisposableBag()

  /// `changed`: the flag the list raises with each change (the storage's `listChanged`); `boundedCount`: where the
  /// number of bounded subscribers is published (the storage's `boundedCount`).
  @inlinable
  init(capacity: Int, changed: ListChangedFlag, boundedCount: BoundedCount) {
    self.capacity = capacity
    subscribers = SubscriberList(changed: changed)
    self.boundedCount = boundedCount
  }

  /// Sinks disposed while another thread was in a turn, whose observers that thread drops when it unlocks.
  @usableFromInline var orphans = ContiguousArray<SinkCore>()

  /// The demands of the subscribers under a bounded consumer, beside the list (see the top of this file).
  @usableFromInline var bounded = ContiguousArray<BoundedSubscriber>()
  /// The senders suspended in `send(_:) async`, each registered with the demand of a bounded subscriber.
  @usableFromInline var waitingSenders = ContiguousArray<WaitingSender>()
  /// Where `bounded.count`, and whether the subject ever had a bounded subscriber and has terminated, are published for
  /// `send(_:) async`'s fast path and its result (the storage's `boundedCount`).
  @usableFromInline let boundedCount: BoundedCount

  /// Records `value`, trimming the buffer BEFORE delivery; `false` once terminated.
  @inlinable
  mutating func receivedValue(_ value: Value) -> Bool {
    guard terminal == nil else { return false }
    if capacity > 0 {
      buffer.append(value)
      if buffer.count > capacity { _ = buffer.popFirst() }
    }
    return true
  }

  /// Records the terminal event; returns the subscribers to deliver it to, the upstream to dispose and the waiting
  /// senders to free, or `nil` if the subject had already terminated.
  @inlinable
  mutating func receivedTerminal(
    _ event: Event<Value, Failure>
  ) -> (ContiguousArray<SinkCore?>, DisposableBag.Children, FreedSenders)? {
    guard terminal == nil else { return nil }
    terminal = event
    boundedCount.storeTerminated()  // before `endFlowControl` clears the count: a send never misses the end
    return (subscribers.removeAll(), upstream.takeAll(), endFlowControl())
  }

  /// Adds `sink` unless the subject has terminated or the sink was disposed meanwhile; returns what it must be
  /// replayed.
  @inlinable
  mutating func attached(_ sink: Sink<Value, Failure>) -> Replay {
    guard !sink.isDisposed else { return Replay(values: [], terminal: nil) }
    if terminal == nil { subscribers.append(sink) }
    return Replay(values: capacity > 0 ? buffer.elements : [], terminal: terminal)
  }

  /// Keeps an upstream subscription; `false` if the subject has terminated (dispose it at once).
  @inlinable
  mutating func subscribed(with disposable: any Disposable) -> Bool {
    upstream.insert(disposable)
  }

  @usableFromInline
  struct Replay {
    @usableFromInline let values: ContiguousArray<Value>
    @usableFromInline let terminal: Event<Value, Failure>?

    @inlinable
    init(values: ContiguousArray<Value>, terminal: Event<Value, Failure>?) {
      self.values = values
      self.terminal = terminal
    }
  }
}
