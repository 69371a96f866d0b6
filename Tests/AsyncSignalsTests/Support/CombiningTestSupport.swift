import AsyncSignals

/// Counts callbacks that overlap: a downstream must never be called concurrently (guarantee 1).
final class OverlapProbe: @unchecked Sendable {
  // guarded by: the `Locked` boxes.
  private let inside = Locked(false)
  private let overlapCount = Locked(0)

  init() {}

  /// Call at the start of a callback.
  func enter() {
    let wasInside = inside.withLock { inside -> Bool in
      defer { inside = true }
      return inside
    }
    if wasInside { overlapCount.increment() }
  }

  /// Call at the end of a callback.
  func leave() { inside.value = false }

  var overlaps: Int { overlapCount.value }
}

extension Signal {
  /// The first `count` values, then completion: a `take` written with `bind`'s stop flag, for tests of the
  /// combining operators (the real `take` lives with the single-input operators).
  func firstValues(_ count: Int) -> Signal<Value, Failure> {
    bind {
      var taken = 0
      return { value, stop in
        taken += 1
        stop = taken >= count
        return .return(value)
      }
    }
  }

  /// A cold signal that sends `values` and completes, synchronously when a scheduler is current.
  static func values(_ values: [Value]) -> Signal<Value, Failure> {
    .create { subscriber in
      for value in values { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
  }
}
