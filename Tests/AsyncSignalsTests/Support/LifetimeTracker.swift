/// An object whose lifetime a test watches (guarantee 8): capture a `Tracked` in a closure, drop your own
/// reference, and check that `isAlive` turns false once the subscription has ended.
final class Tracked: Sendable {
  init() {}
}

/// Holds weak references to tracked objects.
final class LifetimeTracker: @unchecked Sendable {
  // guarded by: `references`, a `Locked` box.
  private let references = Locked<[WeakReference]>([])

  private struct WeakReference {
    weak var object: Tracked?
  }

  /// A new tracked object; the tracker keeps only a weak reference to it.
  func make() -> Tracked {
    let object = Tracked()
    references.append(WeakReference(object: object))
    return object
  }

  /// How many tracked objects are still alive.
  var liveCount: Int { references.value.filter { $0.object != nil }.count }
}
