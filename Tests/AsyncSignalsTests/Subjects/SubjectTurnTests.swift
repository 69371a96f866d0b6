import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// A subject delivers every event inside one turn of its own lock, and its subscribers take no lock of their own
/// (see Subjects/SubjectStorage.swift). These are the cases that arrangement has to get right: a disposal that
/// meets a turn on another thread, a callback that disposes a subscriber in the middle of a delivery, and a
/// subscription made while another thread is in a turn. Each observer captures a `Tracked` object, so that a
/// test sees when the subscription lets go of its closure (guarantee 8) while its disposable is still held.
@Suite("Subject turns: disposal and subscription around a delivery in progress")
struct SubjectTurnTests {
  /// A plain subject (capacity 0) or a replay subject, whose send also takes the state lock to record.
  private static func makeSubject(capacity: Int) -> Subject<Int, Never> {
    capacity == 0 ? Subject() : ReplaySubject(capacity: capacity)
  }

  @Test(
    "disposed from another thread during a send: nothing more arrives, and the observer is released when that send ends",
    arguments: [0, 1, 4])
  func disposalDuringAnotherThreadsTurn(capacity: Int) {
    let subject = Self.makeSubject(capacity: capacity)
    let tracker = LifetimeTracker()
    let checkpoint = Checkpoint()
    let blocker = subject.subscribeNext { value in if value == 1 { checkpoint.pass() } }
    let received = Locked<[Int]>([])
    let disposable = subscribe(subject, tracking: tracker.make(), into: received)
    let sent = startPlainThread { subject.sendNext(1) }
    checkpoint.waitUntilHeld()
    // The sending thread is in the subject's turn, blocked in the first subscriber's callback.
    disposable.dispose()
    // The hand-off is exercised: the observer may still be called by the thread in the turn, so it stays.
    #expect(tracker.liveCount == 1)
    checkpoint.release()
    sent.wait()
    #expect(received.value == [])
    #expect(tracker.liveCount == 0, "released by the thread in the turn, though the disposable is still held")
    subject.sendNext(2)
    #expect(received.value == [])
    withExtendedLifetime((blocker, disposable)) {}
  }

  @Test(
    "disposed from another thread between two sends of a turn: the first arrives, the second does not",
    arguments: [0, 4])
  func disposalBetweenQueuedSends(capacity: Int) {
    let subject = Self.makeSubject(capacity: capacity)
    let tracker = LifetimeTracker()
    let checkpoint = Checkpoint()
    let received = Locked<[Int]>([])
    let disposable = subscribe(subject, tracking: tracker.make(), into: received)
    let blocker = subject.subscribeNext { value in
      if value == 1 {
        subject.sendNext(2)  // queued behind 1 (guarantee 6), delivered in the same turn
        checkpoint.pass()
      }
    }
    let sent = startPlainThread { subject.sendNext(1) }
    checkpoint.waitUntilHeld()
    disposable.dispose()
    checkpoint.release()
    sent.wait()
    #expect(received.value == [1])
    #expect(tracker.liveCount == 0)
    withExtendedLifetime((blocker, disposable)) {}
  }

  @Test(
    "a callback that disposes another subscriber: it keeps what it had, gets nothing more, and lets go at once",
    arguments: [false, true])
  func callbackDisposesAnotherSubscriber(targetSubscribedFirst: Bool) {
    // Subscribed after the disposing one, the target gets nothing of the value in progress; subscribed before,
    // it has had it. Either way it is not being called, so it lets go inside the callback that disposed it.
    let subject = Subject<Int, Never>()
    let tracker = LifetimeTracker()
    let target = Locked<(any Disposable)?>(nil)
    let received = Locked<[Int]>([])
    if targetSubscribedFirst { target.value = subscribe(subject, tracking: tracker.make(), into: received) }
    let liveAfterDispose = Locked<Int?>(nil)
    let disposer = subject.subscribeNext { value in
      guard value == 1 else { return }
      target.value?.dispose()
      liveAfterDispose.value = tracker.liveCount
    }
    if !targetSubscribedFirst { target.value = subscribe(subject, tracking: tracker.make(), into: received) }
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(received.value == (targetSubscribedFirst ? [1] : []))
    #expect(liveAfterDispose.value == 0)
    withExtendedLifetime((target, disposer)) {}
  }

  @Test("a callback that disposes its own subscription keeps its captures until it returns, then lets go")
  func callbackDisposesItself() {
    let subject = Subject<Int, Never>()
    let tracker = LifetimeTracker()
    let own = Locked<(any Disposable)?>(nil)
    let seenAfterDispose = Locked<[Int]>([])
    func subscribe(capturing tracked: Tracked) -> any Disposable {
      subject.subscribeNext { [tracked] _ in
        own.value?.dispose()
        // Still running: the captures must still be alive (a use after free here is what AddressSanitizer finds).
        withExtendedLifetime(tracked) { seenAfterDispose.append(tracker.liveCount) }
      }
    }
    own.value = subscribe(capturing: tracker.make())
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(seenAfterDispose.value == [1])
    #expect(tracker.liveCount == 0)
    withExtendedLifetime(own) {}
  }

  @Test("subscribed from another thread during a send: gets the next send, not the one in progress")
  func subscriptionDuringAnotherThreadsTurn() {
    let subject = Subject<Int, Never>()
    let checkpoint = Checkpoint()
    let blocker = subject.subscribeNext { value in if value == 1 { checkpoint.pass() } }
    let sent = startPlainThread { subject.sendNext(1) }
    checkpoint.waitUntilHeld()
    // A plain subject attaches without waiting for the turn in progress.
    let received = Locked<[Int]>([])
    let late = subject.subscribeNext { received.append($0) }
    checkpoint.release()
    sent.wait()
    subject.sendNext(2)
    #expect(received.value == [2])
    withExtendedLifetime((blocker, late)) {}
  }

  @Test("a subscription made from a callback gets the values queued behind the one in progress")
  func subscriptionFromCallbackGetsQueuedValues() {
    let subject = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let late = Locked<(any Disposable)?>(nil)
    let first = subject.subscribeNext { value in
      guard value == 1 else { return }
      subject.sendNext(2)
      late.value = subject.subscribeNext { received.append($0) }
      subject.sendNext(3)
    }
    subject.sendNext(1)
    #expect(received.value == [2, 3])
    withExtendedLifetime((first, late)) {}
  }

  @Test(
    "after any mix of subscriptions and disposals between sends, each send reaches the live subscribers once, in order",
    arguments: [0, 1])
  func deliveryFollowsTheList(capacity: Int) {
    // A seeded walk through subscribe / dispose / send, against a model: covers the list's journal, its
    // compaction and the copies it makes once the journal would outgrow it. Subscribers get no replay here:
    // `log` is cleared before each send.
    var random = SplitMix(seed: 21)
    let subject = Self.makeSubject(capacity: capacity)
    let log = Locked<[(id: Int, value: Int)]>([])
    var live: [(id: Int, disposable: any Disposable)] = []
    var nextID = 0
    for value in 0..<400 {
      let subscribes = Int(random.next() % 40)
      for _ in 0..<subscribes {
        let id = nextID
        nextID += 1
        live.append((id, subject.subscribeNext { log.append((id, $0)) }))
      }
      let disposals = live.isEmpty ? 0 : Int(random.next() % UInt64(live.count + 1))
      for _ in 0..<disposals {
        let index = Int(random.next() % UInt64(live.count))
        live.remove(at: index).disposable.dispose()
      }
      log.value = []
      subject.sendNext(value)
      #expect(log.value.map(\.id) == live.map(\.id), "send \(value)")
      #expect(log.value.allSatisfy { $0.value == value })
    }
    #expect(subject.subscriberCount == live.count)
  }

  /// Subscribes a recorder whose closure captures `tracked`; the test keeps no other reference to it.
  private func subscribe(
    _ subject: Subject<Int, Never>, tracking tracked: Tracked, into received: Locked<[Int]>
  ) -> any Disposable {
    subject.subscribeNext { [tracked] value in
      withExtendedLifetime(tracked) { received.append(value) }
    }
  }
}

/// A small seeded generator (SplitMix64), so that the walk is the same on every run.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E9B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
