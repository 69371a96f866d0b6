import AsyncSignals
import Synchronization

/// A `.bounded(limit)` iterator's buffer: places that its producer fills and its consumer empties without a lock
/// (issue 29, item 5).
///
/// One producer and one consumer. Guarantee 1 delivers a subscription's values one at a time, in an order that
/// happens-before each next one, so whatever thread sends the next value sees what the last sender wrote: the
/// producer's side is one sequence of calls. The consumer's side is `SignalSequence.Iterator.next`, which one task
/// calls at a time.
///
/// - The producer writes a place, then releases `tail` past it. The consumer acquires `tail`, moves the value out,
///   then releases `head` past it, which hands the place back. Each side keeps a copy of the other's index and reads
///   the shared one only when its copy says the ring is full (producer) or empty (consumer), so that a value costs
///   neither side a cache miss on the other's line.
/// - A consumer that finds the ring empty sets `consumerWaiting` and then reads `tail` again; the producer writes
///   `tail` and then reads `consumerWaiting`. Both sequentially consistent, so one of them sees the other: either the
///   consumer sees the value and does not wait, or the producer sees the waiter and wakes it (a lost wake-up would
///   need both reads to miss, which sequential consistency rules out).
/// - A value that wakes the waiting consumer is handed to it: it does not count against the limit until the consumer
///   takes it, as with the other policies, whose waiting consumer is resumed with the value itself. So the ring has
///   `room + 1` places, and holds `room` values besides a handed one. The producer records the handed value's index
///   (`handedIndex`), so that either side tells from one read of `head` whether it has been taken yet.
/// - `room` is the limit, up to 256 (`maxRoom`): a loop with a larger bound keeps its first 256 values here and the
///   rest behind the lock, as what overflows the ring, so that a large bound does not allocate its whole buffer
///   up front (nor trap, for `.bounded(.max)`).
/// - Everything else (the overflow of a producer that cannot pause, the demand, the terminal event, cancellation)
///   goes through `SignalSequenceStorage`'s lock, which sets `diverted` while values must go that way.
///
/// A struct of pointers, not a class, so that neither side retains anything per value: retaining a shared object
/// from two threads moves its reference count between their caches, and cost the first version of this ring a third
/// of its time. `SignalSequenceStorage` owns the memory and frees it in its deinitialiser.
@usableFromInline
struct BoundedRing<Element>: @unchecked Sendable {
  // guarded by: place i by the index hand-off above (written by the producer before it releases `tail` past i, moved
  // out by the consumer before it releases `head` past i); the words by atomicity, each written by the side its
  // comment names.
  @usableFromInline let places: UnsafeMutablePointer<Element>
  @usableFromInline let words: UnsafeMutablePointer<Atomic<Int>>
  /// The bound: what the iterator holds, ring and overflow, before the demand closes.
  @usableFromInline let limit: Int
  /// How many values the ring holds besides a handed one: the limit, up to `maxRoom`.
  @usableFromInline let room: Int
  /// `room + 1`: a handed value besides `room` others.
  @usableFromInline let capacity: Int

  static var maxRoom: Int { 256 }

  // The words, the producer's and the consumer's on separate cache lines (8 words apart), the shared flags on a third.
  /// The producer's: how many values it has put in (written by the producer only).
  @inlinable static var tail: Int { 0 }
  /// The producer's copy of `head`.
  @inlinable static var producersHead: Int { 1 }
  /// The most values held at once (written by the producer only).
  @inlinable static var highWaterMark: Int { 2 }
  /// The consumer's: how many values it has taken out (written by the consumer only).
  @inlinable static var head: Int { 8 }
  /// The consumer's copy of `tail`.
  @inlinable static var consumersTail: Int { 9 }
  /// 1 while the consumer waits for a value (written under the storage's lock).
  @inlinable static var consumerWaiting: Int { 16 }
  /// 1 while the demand is closed (written under the storage's lock).
  @inlinable static var demandClosed: Int { 17 }
  /// 1 while values must go through the storage's lock: the ring overflowed, or iteration ended (written under it).
  @inlinable static var diverted: Int { 18 }
  /// The index of the last value handed to the consumer as it was woken (-1: none yet); handed and not yet taken while
  /// `head` is not past it. Written under the storage's lock as the consumer is woken; it only grows, so a read that
  /// is out of date counts a taken value as held, never the reverse.
  @inlinable static var handedIndex: Int { 19 }
  /// How many values wait behind the storage's lock, past the ring (written under it).
  @inlinable static var behindLock: Int { 20 }
  static var wordCount: Int { 24 }

  init(limit: Int) {
    self.limit = limit
    room = Swift.min(limit, Self.maxRoom)
    capacity = room + 1
    places = .allocate(capacity: capacity)
    words = UnsafeMutableRawPointer.allocate(byteCount: Self.wordCount * MemoryLayout<Atomic<Int>>.stride, alignment: 64)
      .bindMemory(to: Atomic<Int>.self, capacity: Self.wordCount)
    for index in 0..<Self.wordCount { (words + index).initialize(to: Atomic(0)) }
    words[Self.handedIndex].store(-1, ordering: .relaxed)
  }

  /// Releases the values still in the ring and frees the memory: once neither side can touch the ring again.
  func deallocate() {
    discardAll()
    places.deallocate()
    UnsafeMutableRawPointer(words).deallocate()
  }

  /// The consumer's side: releases every value in the ring, as if taken.
  @usableFromInline
  func discardAll() {
    while take() != nil {}
  }

  // MARK: The producer's side

  /// Puts `value` in; returns how many values the ring holds with it, a handed one not counted, or `nil` (without
  /// putting it in) if full.
  ///
  /// The count is exact when it fills the ring or reaches a new high-water mark, and may be high otherwise (the
  /// producer's copy of `head` may be behind). Records the high-water mark.
  @inlinable
  func append(_ value: Element) -> Int? {
    let tail = words[Self.tail].load(ordering: .relaxed)
    var head = words[Self.producersHead].load(ordering: .relaxed)
    if tail - head >= room {
      head = refreshHead()
      guard tail - head - handed(head: head) < room else { return nil }
    }
    (places + tail % capacity).initialize(to: value)
    // Sequentially consistent: ordered before the read of `consumerWaiting` that follows (see the type's comment).
    words[Self.tail].store(tail + 1, ordering: .sequentiallyConsistent)
    var count = tail + 1 - head
    let highWaterMark = words[Self.highWaterMark].load(ordering: .relaxed)
    if count >= room || count > highWaterMark {
      head = refreshHead()
      count = tail + 1 - head - handed(head: head)
      if count > highWaterMark { words[Self.highWaterMark].store(count, ordering: .relaxed) }
    }
    return count
  }

  /// 1 if the value handed to the consumer is still in the ring, as of `head`; 0 if not.
  @inlinable
  func handed(head: Int) -> Int {
    head <= words[Self.handedIndex].load(ordering: .relaxed) ? 1 : 0
  }

  @inlinable
  func refreshHead() -> Int {
    let head = words[Self.head].load(ordering: .acquiring)
    words[Self.producersHead].store(head, ordering: .relaxed)
    return head
  }

  /// Whether the consumer waits for a value: read by the producer after each value it puts in.
  @inlinable
  var consumerWaiting: Bool {
    words[Self.consumerWaiting].load(ordering: .sequentiallyConsistent) != 0
  }

  /// Whether values must go through the storage's lock.
  @inlinable
  var diverted: Bool {
    words[Self.diverted].load(ordering: .relaxed) != 0
  }

  var highWaterMark: Int {
    words[Self.highWaterMark].load(ordering: .relaxed)
  }

  // MARK: The consumer's side

  /// Takes the oldest value out, with how many the ring still held as the consumer saw it (never more than it
  /// holds); `nil` if empty.
  @inlinable
  func take() -> (Element, left: Int)? {
    let head = words[Self.head].load(ordering: .relaxed)
    var tail = words[Self.consumersTail].load(ordering: .relaxed)
    if head >= tail {
      tail = words[Self.tail].load(ordering: .acquiring)
      words[Self.consumersTail].store(tail, ordering: .relaxed)
      guard head < tail else { return nil }
    }
    let value = (places + head % capacity).move()
    words[Self.head].store(head + 1, ordering: .releasing)
    return (value, tail - head - 1)
  }

  /// Whether the demand is closed: read by the consumer after each value it takes, to reopen it in time.
  @inlinable
  var demandClosed: Bool {
    words[Self.demandClosed].load(ordering: .relaxed) != 0
  }

  /// How many values wait behind the storage's lock, past the ring, as of the last change there: a bound past the
  /// ring's places, or the overflow of a sender that cannot pause. What the consumer reopens the demand against,
  /// with the ring's count and its own batch.
  @inlinable
  var behindLock: Int {
    words[Self.behindLock].load(ordering: .relaxed)
  }

  /// How many values the ring holds, a handed one not counted, read now: from either side, or under the storage's
  /// lock.
  @inlinable
  var count: Int {
    let head = words[Self.head].load(ordering: .acquiring)
    return words[Self.tail].load(ordering: .acquiring) - head - handed(head: head)
  }

  /// Whether the ring holds a value, handed or not, read now.
  @inlinable
  var hasValue: Bool {
    words[Self.tail].load(ordering: .acquiring) > words[Self.head].load(ordering: .acquiring)
  }

  /// The consumer, having said it waits, reads `tail` again (sequentially consistent, after its write of
  /// `consumerWaiting`): whether a value arrived in between, which the producer may not have seen it wait for.
  @inlinable
  var hasValueAfterWaiting: Bool {
    words[Self.tail].load(ordering: .sequentiallyConsistent) > words[Self.head].load(ordering: .relaxed)
  }

  // MARK: Under the storage's lock

  /// Copies the flags that the state machine keeps to the ring, for the sides that read them without the lock.
  @inlinable
  func mirror(_ state: SignalSequenceStateMachine<Element, some Error>) {
    words[Self.demandClosed].store(state.demandOpen ? 0 : 1, ordering: .relaxed)
    words[Self.diverted].store(state.diverted ? 1 : 0, ordering: .relaxed)
    words[Self.behindLock].store(state.buffer.count, ordering: .relaxed)
  }

  /// Says whether the consumer waits for a value (sequentially consistent: see the type's comment).
  @inlinable
  func setConsumerWaiting(_ waiting: Bool) {
    words[Self.consumerWaiting].store(waiting ? 1 : 0, ordering: .sequentiallyConsistent)
  }

  /// The consumer is woken for the oldest value: it is handed to it, and stops counting against the limit.
  @inlinable
  func handOff() {
    words[Self.handedIndex].store(words[Self.head].load(ordering: .relaxed), ordering: .relaxed)
  }
}
