import Foundation
import Synchronization

/// The broken twin of a stage's count (`Demand.take()`, `release(_:)`): the release that reopens the stage takes the
/// resumptions waiting on it, then opens it, without holding the lock across both. A producer that found the stage
/// closed and registers in between is left out: the stage opens, and nobody resumes it. (A yield between the two
/// widens that window, so that the scenario meets it at once.)
final class LosingStage: Sendable {
  static let description =
    "a stage whose reopening release takes the waiting resumptions, then opens, without its lock across both"

  private let limit: Int
  private let reopenAt: Int
  private let taken = Atomic<Int>(0)
  private let open = Atomic<Bool>(true)
  // guarded by: its own lock — the resumptions, and every change of `open`
  private let resumptions = LockedBox<[@Sendable () -> Void]>([])

  init(limit: Int, reopenAt: Int) {
    self.limit = limit
    self.reopenAt = reopenAt
  }

  var hasRoom: Bool { open.load(ordering: .acquiring) }

  func take() {
    guard taken.add(1, ordering: .relaxed).newValue >= limit else { return }
    resumptions.withLock { _ in
      guard open.load(ordering: .relaxed), taken.load(ordering: .relaxed) >= limit else { return }
      open.store(false, ordering: .sequentiallyConsistent)
      if taken.load(ordering: .sequentiallyConsistent) <= reopenAt { open.store(true, ordering: .releasing) }
    }
  }

  func release(_ count: Int) {
    let held = taken.subtract(count, ordering: .sequentiallyConsistent).newValue
    guard held <= reopenAt, !open.load(ordering: .sequentiallyConsistent) else { return }
    let woken = resumptions.withLock { resumptions -> [@Sendable () -> Void] in
      defer { resumptions = [] }
      return resumptions
    }
    sched_yield()
    open.store(true, ordering: .releasing)  // BUG: a resumption registered since the lock was released is lost
    for resumption in woken { resumption() }
  }

  /// Registers `resumption`; `false` (without registering) if the stage has room.
  func resume(whenRoom resumption: @escaping @Sendable () -> Void) -> Bool {
    resumptions.withLock { resumptions in
      guard !open.load(ordering: .relaxed) else { return false }
      resumptions.append(resumption)
      return true
    }
  }
}
