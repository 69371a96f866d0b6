import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

@MainActor
@Suite("TestScheduler.record(_:): every event with its virtual time")
struct TestRecorderTests {
  @Test("each event is recorded with how far the clock had moved from its start when it arrived")
  func times() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, TestError>()
    let recorder = scheduler.record(subject)
    subject.sendNext(1)
    scheduler.advance(by: .milliseconds(1_500))
    subject.sendNext(2)
    scheduler.advance(by: .nanoseconds(1))
    subject.sendCompleted()
    #expect(
      recorder.events == [.next(.zero, 1), .next(.milliseconds(1_500), 2), .completed(.nanoseconds(1_500_000_001))])
    #expect(recorder.values == [1, 2])
  }

  @Test("the times count from the scheduler's start date, whichever it is")
  func startDate() {
    let scheduler = TestScheduler(startDate: Date(timeIntervalSince1970: 1_000_000))
    let ticks = scheduler.record(Signal<Date, Never>.interval(.seconds(1), on: scheduler).take(2))
    scheduler.advance(by: .seconds(2))
    #expect(ticks.events.map(\.time) == [.seconds(1), .seconds(2), .seconds(2)])
  }

  @Test("events sent from scheduled blocks are recorded at the blocks' times; a failure is recorded too")
  func scheduledEvents() {
    let scheduler = TestScheduler()
    let source = scheduler.marbles("a-b#", tick: .milliseconds(250))
    let recorder = scheduler.record(source)
    scheduler.advance(by: .seconds(1))
    #expect(
      recorder.events == [.next(.zero, "a"), .next(.milliseconds(500), "b"), .error(.milliseconds(750), TestError())])
  }

  @Test("a history compares as a whole: another time, value or order is a difference")
  func equality() {
    let recorded: [Recorded<Int, TestError>] = [.next(.seconds(1), 1), .completed(.seconds(2))]
    #expect(recorded == [.next(.milliseconds(1_000), 1), .completed(.seconds(2))])
    #expect(recorded != [.next(.seconds(1), 1), .completed(.seconds(3))])
    #expect(recorded != [.next(.seconds(1), 2), .completed(.seconds(2))])
    #expect(recorded != [.completed(.seconds(2)), .next(.seconds(1), 1)])
    #expect(Recorded<Int, TestError>(time: .seconds(1), event: .next(1)) == .next(.seconds(1), 1))
    #expect(Set([Recorded<Int, Never>.next(.zero, 1), .next(.zero, 1)]).count == 1)
  }

  @Test("the description is the Swift that makes the entry, in the largest exact unit")
  func description() {
    #expect(Recorded<String, Never>.next(.milliseconds(300), "sw").description == #".next(.milliseconds(300), "sw")"#)
    #expect(Recorded<Int, Never>.completed(.seconds(2)).description == ".completed(.seconds(2))")
    #expect(Recorded<Int, Never>.completed(.zero).description == ".completed(.zero)")
    #expect(Recorded<Int, Never>.next(.microseconds(1_500), 7).description == ".next(.microseconds(1500), 7)")
    #expect(Recorded<Int, Never>.next(.nanoseconds(3), 7).description == ".next(.nanoseconds(3), 7)")
    let failure = Recorded<Int, TimeoutError>.error(.seconds(5), TimeoutError())
    #expect(failure.description.hasPrefix(".error(.seconds(5), "))
    let recorder = TestScheduler().record(Signal<Int, Never>.return(1))
    #expect(recorder.description == "[.next(.zero, 1), .completed(.zero)]")
    #expect(String(reflecting: recorder.events) == "[.next(.zero, 1), .completed(.zero)]")
  }

  @Test("disposing ends the subscription; what was recorded stays")
  func disposal() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = scheduler.record(subject)
    subject.sendNext(1)
    #expect(!recorder.isDisposed)
    recorder.dispose()
    #expect(recorder.isDisposed)
    #expect(subject.subscriberCount == 0)
    subject.sendNext(2)
    #expect(recorder.events == [.next(.zero, 1)])
    recorder.dispose()  // again: nothing more
  }

  @Test("it subscribes at once: a subject's value sent right after record(_:) is recorded")
  func subscribesAtOnce() {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = scheduler.record(subject.map { $0 * 10 })
    subject.sendNext(1)
    #expect(recorder.values == [10])
  }

  @Test("events that arrive on other threads are recorded in the order they were delivered")
  nonisolated func otherThreads() async {
    let scheduler = TestScheduler()
    let subject = Subject<Int, Never>()
    let recorder = scheduler.record(subject)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        for value in 0..<1_000 { subject.sendNext(value) }
        subject.sendCompleted()
        continuation.resume()
      }
    }
    #expect(recorder.values == Array(0..<1_000))
    #expect(recorder.events.last == .completed(.zero))
  }
}
