import Dispatch
import Testing

@testable import AsyncSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Concurrent send / subscribe / dispose on every subject type. Four threads send distinct values, two threads
/// keep subscribing, two keep subscribing and disposing. Live order must equal replay order: every subscriber's
/// values are a contiguous run of one global order (the order a subscriber attached before any send receives),
/// each value at most once, and each sender's values in the order it sent them.
///
/// Each hammer runs on a thread of its own, one test at a time: it blocks its thread for as long as it runs (minutes
/// pinned to one CPU beside busy loops), so neither the main actor, which every main-actor test shares, nor the
/// cooperative pool may be that thread. (On the main actor, it held a `settle()` that waited for a main-queue job
/// for over 5 minutes in the pinned run of issue 27.)
@Suite("Subjects under concurrent send, subscribe and dispose", .serialized)
struct SubjectConcurrencyTests {
  static let senders = 4
  static let valuesPerSender = 500

  enum Replay { case none, all, latest }

  @Test("Subject") func subject() async {
    let subject = Subject<Int, Never>()
    await onOwnThread {
      Self.hammer(subject, subject, replay: .none, initial: [], count: { subject.subscriberCount })
    }
  }

  @Test("ReplaySubject, unlimited: every subscriber's values are a prefix of the global order")
  func replaySubject() async {
    let subject = ReplaySubject<Int, Never>()
    await onOwnThread {
      Self.hammer(subject, subject, replay: .all, initial: [], count: { subject.subscriberCount })
    }
  }

  @Test("ReplaySubject, capacity 8") func replaySubjectWithCapacity() async {
    let subject = ReplaySubject<Int, Never>(capacity: 8)
    await onOwnThread {
      Self.hammer(subject, subject, replay: .latest, initial: [], count: { subject.subscriberCount })
    }
  }

  @Test("BehaviorSubject") func behaviorSubject() async {
    let subject = BehaviorSubject<Int, Never>(value: -1)
    await onOwnThread {
      Self.hammer(subject, subject, replay: .latest, initial: [-1], count: { subject.subscriberCount })
    }
  }

  @Test("GroupedSignal") func groupedSignal() async {
    let subject = GroupedSignal<String, Int, Never>(key: "k")
    await onOwnThread {
      Self.hammer(subject, subject, replay: .none, initial: [], count: { subject.subscriberCount })
    }
  }

  private static func hammer(
    _ signal: Signal<Int, Never>, _ subscriber: some Subscriber<Int, Never>, replay: Replay, initial: [Int],
    count: () -> Int
  ) {
    let reference = Locked<[Int]>([])
    let overlaps = Locked(0)
    let busy = Locked(false)
    signal.subscribeNext { value in
      if busy.withLock({
        let was = $0
        $0 = true
        return was
      }) {
        overlaps.increment()
      }
      reference.append(value)
      busy.value = false
    }
    let runs = Locked<[(values: [Int], disposed: Bool, completed: Bool)]>([])
    let live = Locked<[(Locked<[Int]>, Locked<Bool>)]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      ImmediateScheduler.shared.performAsCurrent {
        switch thread {
        case 0..<Self.senders:
          for index in 0..<Self.valuesPerSender {
            subscriber.sendNext(thread * 100_000 + index)
            sched_yield()
          }
        case Self.senders..<(Self.senders + 2):
          for _ in 0..<10 {
            let values = Locked<[Int]>([])
            let completed = Locked(false)
            signal.subscribeNext(
              { value in
                values.append(value)
                yieldSometimes(value)
              }, completed: { completed.value = true })
            live.append((values, completed))
            for _ in 0..<100 { sched_yield() }
          }
        default:
          for _ in 0..<50 {
            let values = Locked<[Int]>([])
            let disposable = signal.subscribeNext { value in
              values.append(value)
              yieldSometimes(value)
            }
            for _ in 0..<20 { sched_yield() }
            disposable.dispose()
            runs.append((values.value, true, false))
          }
        }
      }
    }
    subscriber.sendCompleted()
    for (values, completed) in live.value { runs.append((values.value, false, completed.value)) }

    let order = reference.value
    #expect(overlaps.value == 0)
    #expect(order.count == initial.count + Self.senders * Self.valuesPerSender)
    #expect(Array(order.prefix(initial.count)) == initial)
    for sender in 0..<Self.senders {
      let own = order.filter { $0 >= sender * 100_000 && $0 < (sender + 1) * 100_000 }
      #expect(own == Array(sender * 100_000..<(sender * 100_000 + Self.valuesPerSender)))
    }
    let positions = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
    for run in runs.value {
      guard let first = run.values.first, let start = positions[first] else {
        #expect(run.values.isEmpty || replay != .all, "an unlimited replay subject replays at least one value")
        continue
      }
      let end = start + run.values.count
      #expect(end <= order.count && Array(order[start..<end]) == run.values, "not a contiguous run of the order")
      if replay == .all { #expect(start == 0, "an unlimited replay starts at the first value") }
      if !run.disposed {
        #expect(run.completed)
        #expect(end == order.count, "a subscriber that was not disposed receives every later value")
      }
    }
    #expect(count() == 0)
  }
}

/// A subscriber's pause inside a delivery, to widen the windows the hammer looks for: on one value in 16, since a
/// replaying subject delivers up to 2,000 values to each of a hundred subscribers, and a `sched_yield` per value
/// took over ten minutes pinned to one CPU beside two busy loops (a yield gives the CPU to each busy loop in turn).
private func yieldSometimes(_ value: Int) {
  if value & 15 == 0 { sched_yield() }
}
