#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The package's one lock type.
//
// Every piece of shared mutable state in AsyncSignals is guarded either by an `Atomic` or by a lock built from
// the platform primitive below: `os_unfair_lock` on Apple platforms, `pthread_mutex_t` elsewhere. Not
// Synchronization's `Mutex`: on Linux it synchronises through futex calls that ThreadSanitizer cannot see, so
// every contended use is reported as a race (see DESIGN.md). The primitive always lives at a stable address:
// in the tail allocation of a `ManagedBuffer`, never in a Swift stored property, whose address Swift does not
// promise to keep.

#if canImport(Darwin)
@usableFromInline typealias PlatformLock = os_unfair_lock
#else
@usableFromInline typealias PlatformLock = pthread_mutex_t
#endif

/// Operations on a platform lock at a stable address. Callers own the memory, which must be initialised
/// (to a zeroed value) before `setUp` and is left initialised after `tearDown`.
@usableFromInline
enum LockPrimitive {
  /// `spinning`: with Glibc, the lock is adaptive: a thread that finds it taken spins briefly before sleeping in
  /// the kernel. That pays where threads meet on a short section by design (zip's inputs, each sending from a
  /// thread of its own): they then rarely pay for a futex sleep and wake-up. Uncontended it costs a few
  /// nanoseconds more than a plain mutex (glibc's lock and unlock test the kind first), so the other locks stay
  /// plain. Ignored elsewhere (`os_unfair_lock` has no kind; Musl has no adaptive mutex).
  @inlinable
  static func setUp(_ lock: UnsafeMutablePointer<PlatformLock>, spinning: Bool = false) {
    #if canImport(Darwin)
    lock.pointee = os_unfair_lock()
    #else
    #if canImport(Glibc)
    // glibc's PTHREAD_MUTEX_INITIALIZER is all zeros: a zeroed mutex is a default one, with no call to make.
    // (A lock is set up per subscription in places, such as a `create` body's sink.)
    guard spinning else {
      lock.pointee = pthread_mutex_t()
      return
    }
    #endif
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    defer { pthread_mutexattr_destroy(&attributes) }
    #if canImport(Glibc)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    #endif
    let status = pthread_mutex_init(lock, &attributes)
    precondition(status == 0, "LockPrimitive: pthread_mutex_init failed with \(status)")
    #endif
  }

  @inlinable
  static func tearDown(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if !canImport(Darwin)
    pthread_mutex_destroy(lock)
    #endif
  }

  @inlinable
  static func lock(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if canImport(Darwin)
    os_unfair_lock_lock(lock)
    #else
    pthread_mutex_lock(lock)
    #endif
  }

  @inlinable
  static func unlock(_ lock: UnsafeMutablePointer<PlatformLock>) {
    #if canImport(Darwin)
    os_unfair_lock_unlock(lock)
    #else
    pthread_mutex_unlock(lock)
    #endif
  }
}

/// A recursive mutex: the delivery lock of a subscription (guarantees 1 and 6). Always `pthread_mutex_t`,
/// because `os_unfair_lock` cannot be taken recursively.
@usableFromInline
enum RecursiveLockPrimitive {
  @usableFromInline
  static func setUp(_ lock: UnsafeMutablePointer<pthread_mutex_t>) {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    defer { pthread_mutexattr_destroy(&attributes) }
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    let status = pthread_mutex_init(lock, &attributes)
    precondition(status == 0, "RecursiveLockPrimitive: pthread_mutex_init failed with \(status)")
  }

  @usableFromInline
  static func tearDown(_ lock: UnsafeMutablePointer<pthread_mutex_t>) {
    pthread_mutex_destroy(lock)
  }

  @inlinable
  static func lock(_ lock: UnsafeMutablePointer<pthread_mutex_t>) {
    pthread_mutex_lock(lock)
  }

  @inlinable
  static func unlock(_ lock: UnsafeMutablePointer<pthread_mutex_t>) {
    pthread_mutex_unlock(lock)
  }

  /// Takes the lock if no other thread holds it (a thread that already holds it succeeds: it is recursive).
  @inlinable
  static func tryLock(_ lock: UnsafeMutablePointer<pthread_mutex_t>) -> Bool {
    pthread_mutex_trylock(lock) == 0
  }
}

/// The storage of a `LockedState`: the state in the header, the lock in the tail allocation (one allocation).
@usableFromInline
final class LockedStorage<State>: ManagedBuffer<State, PlatformLock> {
  @inlinable
  static func make(_ initial: State, spinning: Bool) -> LockedStorage<State> {
    let buffer = Self.create(minimumCapacity: 1) { _ in initial }
    let storage = unsafeDowncast(buffer, to: LockedStorage<State>.self)
    storage.withUnsafeMutablePointerToElements { lock in
      lock.initialize(to: PlatformLock())
      LockPrimitive.setUp(lock, spinning: spinning)
    }
    return storage
  }

  @inlinable
  deinit {
    withUnsafeMutablePointerToElements { lock in
      LockPrimitive.tearDown(lock)
      lock.deinitialize(count: 1)
    }
  }
}

/// A value guarded by the package's lock, in the manner of swift-nio's `NIOLockedValueBox`.
///
/// `withLock` must never call user code, `dispose()` or `subscribe` (STYLE.md: decide under the lock, act
/// after releasing it).
///
/// `package` rather than internal so that the Interop module guards its state with the same lock (never
/// `Mutex`); it is not public API.
@usableFromInline
package struct LockedState<State> {
  @usableFromInline
  let storage: LockedStorage<State>

  /// `spinning: true` for a lock that threads contend for by design (see `LockPrimitive.setUp`): zip's and
  /// combineLatest's, whose inputs each send from a thread of their own, and a `for await` loop's, which its producer
  /// and its consumer take from two threads.
  @inlinable
  package init(_ initial: State, spinning: Bool = false) {
    storage = .make(initial, spinning: spinning)
  }

  @inlinable
  package func withLock<Result>(_ body: (inout State) -> Result) -> Result {
    storage.withUnsafeMutablePointers { state, lock in
      LockPrimitive.lock(lock)
      defer { LockPrimitive.unlock(lock) }
      return body(&state.pointee)
    }
  }
}

// guarded by: the lock in `storage`; every access to the state goes through `withLock`.
extension LockedState: @unchecked Sendable where State: Sendable {}
