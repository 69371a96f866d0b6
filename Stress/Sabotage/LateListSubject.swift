import AsyncSignals
import Foundation

/// The broken twin of a subject's attach (`--sabotage SubjectAttach`): the shape the library had before issue 26.
/// `subscribe` records the subscriber where `subscriberCount` reads it, releases that lock, and only then adds it
/// to the list that a send walks. A sender that saw the count in between walks the old list: its values never reach
/// the new subscriber, and nothing counts them.
final class LateListSubject: HotSignal {
  static let description =
    "a subject whose subscribe counts the subscriber before adding it to the list that sends walk"

  private let turn = NSRecursiveLock()
  private let counted = LockedBox<Int>(0)
  private let delivering = LockedBox<[Recorder<Int>]>([])

  func sendNext(_ value: Int) {
    turn.lock()
    defer { turn.unlock() }
    for recorder in delivering.value { recorder.record(.next(value)) }
  }

  func subscribe(_ recorder: Recorder<Int>) -> any Disposable {
    counted.withLock { $0 += 1 }
    sched_yield()  // BUG: the window, between counting the subscriber and publishing it to the senders
    delivering.withLock { $0.append(recorder) }
    return ActionDisposable { [counted, delivering] in
      delivering.withLock { $0.removeAll { $0 === recorder } }
      counted.withLock { $0 -= 1 }
    }
  }

  var subscriberCount: Int { counted.value }
}
