import AsyncSignals
import Foundation
import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

// The instruments scenarios use to observe the code under test. They are deliberately built from atomics and
// Foundation's locks, never from the library's own lock, so that a bug in the library cannot hide behind them.

/// The failure type of the signals scenarios build.
struct StressFailure: Error, Equatable {
  var code = 0
}

/// A counter that any thread may bump.
final class Tally: Sendable {
  private let count = Atomic<Int>(0)

  init() {}

  /// Adds one; returns the new count.
  @discardableResult
  func increment() -> Int { count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue }

  /// Subtracts one; returns the new count.
  @discardableResult
  func decrement() -> Int { count.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue }

  /// Adds `amount`; returns the new count.
  @discardableResult
  func add(_ amount: Int) -> Int { count.wrappingAdd(amount, ordering: .acquiringAndReleasing).newValue }

  var value: Int { count.load(ordering: .acquiring) }
}

/// A flag that any thread may set.
final class Flag: Sendable {
  private let bit = Atomic<Bool>(false)

  init() {}

  func set() { bit.store(true, ordering: .releasing) }

  var isSet: Bool { bit.load(ordering: .acquiring) }
}

/// A value guarded by an `NSLock`: the harness's own shared state (mailboxes, registries).
final class LockedBox<Value>: @unchecked Sendable {
  // guarded by: `lock`
  private let lock = NSLock()
  private var storage: Value

  init(_ value: Value) { storage = value }

  var value: Value {
    get { lock.withLock { storage } }
    set { lock.withLock { storage = newValue } }
  }

  @discardableResult
  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&storage) }
  }
}

/// State that only a subscriber's callbacks touch, with no lock of its own.
///
/// This is the point of the Stress run: guarantee 1 says a subscriber's callbacks need no locking, so the
/// callbacks keep their bookkeeping in plain memory and rely on the library alone to order their calls. Were
/// two deliveries not ordered by the library (by a lock it takes, or the hand-off of an operator's outbox),
/// ThreadSanitizer would report the accesses to this box. Callbacks enter it only through an
/// `OverlapDetector`, which keeps an overlapping call out of it (see there), so that even a deliberately
/// broken twin (`--sabotage`) cannot corrupt it in a build without ThreadSanitizer.
final class SerialState<State>: @unchecked Sendable {
  // guarded by: the serial delivery under test (guarantee 1), checked by an `OverlapDetector` and by TSan.
  var value: State

  init(_ value: State) { self.value = value }
}

/// Detects two callbacks of one subscriber running at the same time on different threads.
///
/// Only relaxed atomics: the detector must not itself order the callbacks (that would hide from
/// ThreadSanitizer a library that fails to). A nested call on the same thread (a re-entrant send, delivered
/// at once as RAC does) is not an overlap. `enter()` answers `false` for an overlapping call, which must then
/// leave the subscriber's `SerialState` alone.
final class OverlapDetector: Sendable {
  private let owner = Atomic<UInt>(0)  // the thread inside, 0 when none
  private let depth = Atomic<Int>(0)  // nesting of the owner; touched only by the owner
  private let overlaps = Atomic<Int>(0)

  init() {}

  /// How many calls found another thread inside.
  var count: Int { overlaps.load(ordering: .relaxed) }

  func enter() -> Bool {
    let me = currentThreadToken()
    let (exchanged, original) = owner.compareExchange(expected: 0, desired: me, ordering: .relaxed)
    if exchanged || original == me {
      depth.wrappingAdd(1, ordering: .relaxed)
      return true
    }
    overlaps.wrappingAdd(1, ordering: .relaxed)
    return false
  }

  func exit() {
    if depth.wrappingSubtract(1, ordering: .relaxed).newValue == 0 {
      owner.store(0, ordering: .relaxed)
    }
  }
}

/// A non-zero token for the calling thread.
func currentThreadToken() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: Int(bitPattern: pthread_self()))
  #else
    UInt(pthread_self())
  #endif
}

/// A global order of moments ("epochs") across threads, to tell whether one thing happened after another.
///
/// Every tick is a sequentially consistent read-modify-write of one atomic, so if thread A took its tick
/// after `dispose()` returned and thread B took a later tick before sending, the disposal happened before the
/// send: a delivery of that send would break "nothing after dispose returned".
///
/// The ticks also order the threads for ThreadSanitizer, so the scenarios that must prove to TSan that the
/// library orders deliveries (SerialDelivery, Zip, FlattenMap) do without a clock.
final class EpochClock: Sendable {
  private let ticks = Atomic<Int>(0)

  init() {}

  func tick() -> Int { ticks.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue }
}

/// A disposable that counts every call to `dispose()`, not only the first, so that a container disposing
/// a child twice is caught (an `ActionDisposable` child would hide it). `handBack()` records that a
/// `SerialDisposable` returned it from `swap`.
final class Probe: Disposable {
  let id: Int
  private let disposals = Atomic<Int>(0)
  private let handBacks = Atomic<Int>(0)
  private let onFirstDispose: (@Sendable (Probe) -> Void)?

  init(id: Int, onFirstDispose: (@Sendable (Probe) -> Void)? = nil) {
    self.id = id
    self.onFirstDispose = onFirstDispose
  }

  var isDisposed: Bool { disposals.load(ordering: .acquiring) > 0 }

  var disposeCount: Int { disposals.load(ordering: .acquiring) }

  var handBackCount: Int { handBacks.load(ordering: .acquiring) }

  func dispose() {
    if disposals.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 { onFirstDispose?(self) }
  }

  func handBack() { handBacks.wrappingAdd(1, ordering: .acquiringAndReleasing) }
}

/// A cold signal whose subscription hands its subscriber to the harness (to send from any thread) and
/// counts how often its cleanup ran.
final class Source<Value: Sendable>: Sendable {
  let signal: Signal<Value, StressFailure>
  let cleanups = Tally()
  private let box = LockedBox<(any Subscriber<Value, StressFailure>)?>(nil)

  init() {
    signal = .create { [box, cleanups] subscriber in
      box.value = subscriber
      return ActionDisposable { cleanups.increment() }
    }
  }

  /// The subscriber of the latest subscription. Subscribe first (with a current scheduler, so that the body
  /// has run).
  var subscriber: any Subscriber<Value, StressFailure> {
    guard let subscriber = box.value else { preconditionFailure("Source: not subscribed yet") }
    return subscriber
  }

  /// The subscriber of the latest subscription, or `nil` if the body has not run.
  var subscriberIfSubscribed: (any Subscriber<Value, StressFailure>)? { box.value }

  /// Forgets the subscriber (to check that nothing else keeps the subscription alive).
  func forget() { box.value = nil }
}

/// Runs `body` with the immediate scheduler as the current one, so that `create` bodies run at once on the
/// calling thread (guarantee 5) and a subscription is live when `subscribe` returns.
func immediately<Result>(_ body: () -> Result) -> Result {
  ImmediateScheduler.shared.performAsCurrent(body)
}

/// A small, fast, seedable generator (SplitMix64), so that a scenario's random choices repeat with `--seed`.
struct SplitMix: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A value in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }

  /// `true` once in `n` times on average.
  mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

  /// Gives other threads a chance to run: up to `max` yields.
  mutating func dawdle(_ max: Int) {
    for _ in 0..<below(max + 1) { sched_yield() }
  }
}

/// State one thread owns during a race, and the coordinator reads once the crew has joined.
final class Owned<State>: @unchecked Sendable {
  // guarded by: ownership — only its thread touches it during the race; the crew's join (a lock) orders
  // those writes before the coordinator's reads.
  var value: State

  init(_ value: State) { self.value = value }
}
