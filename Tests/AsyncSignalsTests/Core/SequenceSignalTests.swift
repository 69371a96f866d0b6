import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

@Suite("Signal.from(_:): a cold source from any Swift sequence")
struct SequenceSignalTests {
  @Test("sends the elements in order, then completes, before subscribe returns (in a task)")
  func sendsSynchronously() async {
    let events = EventRecorder(Signal<Int, TestError>.from([3, 1, 2]))
    #expect(events.events == [.next(3), .next(1), .next(2), .completed])
  }

  @Test("take(3) of an endless sequence reads three elements and completes")
  func stopsWhenDownstreamIsDone() {
    /// The natural numbers, counting how many were read.
    struct Naturals: Sequence, Sendable {
      let read: Locked<Int>
      func makeIterator() -> AnyIterator<Int> {
        var next = 0
        return AnyIterator {
          next += 1
          read.increment()
          return next
        }
      }
    }
    let read = Locked(0)
    let events = EventRecorder(Signal<Int, Never>.from(Naturals(read: read)).take(3))
    #expect(events.events == [.next(1), .next(2), .next(3), .completed])
    #expect(read.value == 3)
  }

  @Test("cold: each subscription walks the sequence anew")
  func cold() {
    let signal = Signal<String, Never>.from(["a", "b"])
    #expect(EventRecorder(signal).values == ["a", "b"])
    #expect(EventRecorder(signal).values == ["a", "b"])
  }

  @Test("an empty sequence completes at once")
  func empty() {
    #expect(EventRecorder(Signal<Int, Never>.from([])).events == [.completed])
  }

  @Test("on a plain thread the walk runs on the background scheduler; disposed before it starts, it never runs")
  func plainThreadScheduledAndCancellable() async {
    let blocker = DispatchSemaphore(value: 0)
    QueueScheduler.background.schedule { blocker.wait() }  // holds the walk back
    let received = Locked<[Int]>([])
    let returnedBeforeDelivery = Locked(false)
    onPlainThread {
      let subscription = Signal<Int, Never>.from([1, 2, 3]).subscribeNext { received.append($0) }
      returnedBeforeDelivery.value = received.value.isEmpty
      subscription.dispose()
    }
    blocker.signal()
    await withCheckedContinuation { continuation in QueueScheduler.background.schedule { continuation.resume() } }
    #expect(returnedBeforeDelivery.value)
    #expect(received.value.isEmpty)
  }

  @Test("on a plain thread, a subscription kept delivers everything from the background scheduler")
  func plainThreadDelivers() async {
    let done = Locked<CheckedContinuation<[Int], Never>?>(nil)
    let values = await withCheckedContinuation { continuation in
      done.value = continuation
      onPlainThread {
        let received = Locked<[Int]>([])
        Signal<Int, Never>.from(1...4).subscribeNext(
          { received.append($0) }, completed: { done.value?.resume(returning: received.value) })
      }
    }
    #expect(values == [1, 2, 3, 4])
  }
}
