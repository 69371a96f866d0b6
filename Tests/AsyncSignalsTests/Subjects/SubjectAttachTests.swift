import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// "A subscriber counted is a subscriber served" (the Guarantees article, "When a subscriber is attached"): from the
/// moment a subject's state records a subscriber — what `subscriberCount` reads — every later send reaches it, even
/// while its `subscribe` call has not returned yet. A debug-only hook holds the subscribing thread just after the
/// state has recorded it, where a sender that waited for the count used to find the subject's delivery list stale.
#if DEBUG
@Suite("Subject attach: a counted subscriber receives every later send", .serialized)
struct SubjectAttachTests {
  @Test(
    "a send made once the count shows the subscriber, while its subscribe is held, reaches it", arguments: [0, 1, 4])
  func sendWhileAttachIsHeld(capacity: Int) {
    let subject: Subject<Int, Never> = capacity == 0 ? Subject() : ReplaySubject(capacity: capacity)
    let received = Locked<[Int]>([])
    let checkpoint = Checkpoint()
    let disposable = Locked<(any Disposable)?>(nil)
    SubjectTestHooks.holdingAttach(to: subject.storage, in: { checkpoint.pass() }) {
      let subscribed = startPlainThread {
        disposable.value = subject.subscribeNext { received.append($0) }
      }
      checkpoint.waitUntilHeld()
      #expect(subject.subscriberCount == 1, "the state has recorded the subscriber")
      // A replaying subject holds its turn while it attaches, so this sender waits for the hold to end; a plain
      // subject attaches outside its turn, so this send runs now, while the subscriber's attach is held.
      let sent = startPlainThread { subject.sendNext(1) }
      if capacity == 0 { sent.wait() }
      checkpoint.release()
      subscribed.wait()
      if capacity > 0 { sent.wait() }
    }
    subject.sendNext(2)
    #expect(received.value == [1, 2])
    disposable.value?.dispose()
  }

  @Test("a sender that waits for the count, then sends, loses nothing to a subscriber attaching on another thread")
  func countThenSend() {
    // The user's shape, without the hook: many short attaches against a sender spinning on the count. Not a proof
    // (the window is narrow without the hook); the Stress scenario `SubjectAttach` runs it pinned to one CPU.
    for _ in 0..<200 {
      let subject = Subject<Int, Never>()
      let received = Locked<[Int]>([])
      let disposable = Locked<(any Disposable)?>(nil)
      let subscribed = startPlainThread { disposable.value = subject.subscribeNext { received.append($0) } }
      while subject.subscriberCount == 0 { sched_yield() }
      subject.sendNext(1)
      subscribed.wait()
      subject.sendNext(2)
      #expect(received.value == [1, 2])
      disposable.value?.dispose()
    }
  }
}
#endif
