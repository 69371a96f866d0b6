import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One evaluated step of a memoised sequence: the end, or a head and the rest.
@usableFromInline
enum MemoStep<Element: Sendable>: Sendable {
  case empty
  indirect case cons(Element, MemoizedSequence<Element>)
}

/// A step of a lazy `MemoizedSequence`, computed at most once (RAC's `RACDynamicSequence`).
///
/// The first reader runs the thunk while holding the node's own mutex, so concurrent readers wait for that one
/// evaluation instead of running it again — RAC's `@synchronized` head and tail blocks do the same. This is the
/// one place in the package where a lock is held while user code runs; it is a per-node "once" lock, never held
/// while anything else is delivered, and evaluating a node only ever evaluates nodes further down its chain, so
/// two such locks are never taken in opposite orders. A thunk that reads its own node (a cycle) would deadlock:
/// the mutex checks for it and the program stops with a message instead. Once evaluated, the step is read with
/// one atomic load and no lock.
@usableFromInline
final class MemoNode<Element: Sendable>: @unchecked Sendable {
  // guarded by: `lock` for `thunk` and `step` until `evaluated` is set; `step` is then immutable, written before
  // the releasing store of `evaluated` and read after an acquiring load of it. `lock` is a `let`.
  private let lock: UnsafeMutablePointer<pthread_mutex_t>
  private let evaluated = Atomic<Bool>(false)
  private var thunk: (@Sendable () -> MemoStep<Element>)?
  private var step: MemoStep<Element>?

  init(_ thunk: @escaping @Sendable () -> MemoStep<Element>) {
    self.thunk = thunk
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
    pthread_mutex_init(lock, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  /// An already evaluated node (the eager and collection-backed cases do not need one).
  init(evaluated step: MemoStep<Element>) {
    self.step = step
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
    evaluated.store(true, ordering: .releasing)
  }

  deinit {
    // Unlink the memoised chain iteratively: releasing it recursively would use one stack frame per element.
    var next = takeTailNode()
    while var node = next.take() {
      guard isKnownUniquelyReferenced(&node) else { break }
      next = node.takeTailNode()
    }
    pthread_mutex_destroy(lock)
    lock.deinitialize(count: 1)
    lock.deallocate()
  }

  /// The step, evaluating it on the first read.
  @usableFromInline
  var value: MemoStep<Element> {
    if evaluated.load(ordering: .acquiring), let step { return step }
    let status = pthread_mutex_lock(lock)
    precondition(status == 0, "MemoizedSequence: a head or tail closure read the sequence it is computing")
    defer { pthread_mutex_unlock(lock) }
    if let step { return step }
    let computed = thunk!()
    step = computed
    thunk = nil
    evaluated.store(true, ordering: .releasing)
    return computed
  }

  /// For `deinit` only (no other reference exists): detaches and returns the next node of the chain.
  private func takeTailNode() -> MemoNode? {
    guard case .cons(_, let tail)? = step, case .node(let node) = tail.storage else { return nil }
    step = .empty
    return node
  }
}
