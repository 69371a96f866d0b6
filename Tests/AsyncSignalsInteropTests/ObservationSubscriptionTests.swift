import Dispatch
import Foundation
import Observation
import Testing

@testable import AsyncSignals
@testable import AsyncSignalsInterop

/// A model with state Observation does not track: a `let` and an ignored property.
@MainActor
@Observable
final class Ticket {
  let id: Int
  @ObservationIgnored var note = "draft"
  var status = "open"

  init(id: Int) { self.id = id }
}

/// Issue 27, item 1: each subscription of `Signal.observing` gets an observation of its own, so that several
/// subscriptions of one signal neither take each other's changes (a missed change, a loop that never ends) nor send
/// one change twice; and an evaluation that tracked nothing, which Observation can never run again, sends its value
/// and completes. Each test failed while one `Observations` served every subscription of a signal.
@MainActor
@Suite("Observation: one observation per subscription")
struct ObservationSubscriptionTests {
  @Test(
    "two and three plain subscribers of one signal each get the current value and one value per change",
    arguments: [2, 3])
  func plainSubscribers(count: Int) async {
    let counter = Counter()
    let signal = Signal.observing(counter, \.count)
    let recorders = (0..<count).map { _ in ThreadRecorder<Int>() }
    let subscriptions = recorders.map { recorder in signal.subscribeNext { recorder.record($0) } }
    for recorder in recorders { await recorder.arrived(1) }
    for change in 1...20 {
      counter.count = change
      for recorder in recorders { await recorder.arrived(change + 1) }
    }
    // A duplicate of the last change would come in a job after the one that sent it: one more change flushes it.
    counter.count = 21
    for recorder in recorders { await recorder.arrived(22) }
    for recorder in recorders { #expect(recorder.values.value == Array(0...21)) }
    for subscription in subscriptions { subscription.dispose() }
  }

  @Test("a later subscriber, after an earlier one took first(), gets its current value once")
  func laterSubscriberAfterFirst() async {
    let counter = Counter()
    let signal = Signal.observing(counter, \.count)
    #expect(await signal.first() == 0)
    counter.count = 7
    let recorder = ThreadRecorder<Int>()
    let subscription = signal.subscribeNext { recorder.record($0) }
    await recorder.arrived(1)
    counter.count = 8
    await recorder.arrived(2)
    #expect(recorder.values.value == [7, 8])
    subscription.dispose()
  }

  @Test(
    "bounded loops over one signal each see every change's value and end when the object goes away",
    arguments: [2, 3])
  func boundedLoops(count: Int) async {
    for _ in 0..<5 {
      var person: Person? = Person()
      let signal = Signal.observing(person!, \.first)
      let recorders = (0..<count).map { _ in ThreadRecorder<String>() }
      let loops = recorders.map { recorder in
        Task.detached {
          for await first in signal.values(bufferingPolicy: .bounded(1)) { recorder.record(first) }
          recorder.record(nil)
        }
      }
      for recorder in recorders { await recorder.arrived(1) }
      for (index, name) in ["Grace", "Anita", "Kurt"].enumerated() {
        person?.first = name
        for recorder in recorders { await recorder.arrived(index + 2) }
      }
      person = nil
      let ended = await finishes { for loop in loops { await loop.value } }
      #expect(ended, "a loop never completed after its object went away")
      for recorder in recorders {
        #expect(recorder.values.value == ["Ada", "Grace", "Anita", "Kurt"])
      }
    }
  }

  @Test(
    "an evaluation that tracked nothing sends its value and completes, the object still alive",
    arguments: ObservationEngine.allCases)
  func trackedNothing(engine: ObservationEngine) async {
    let ticket = Ticket(id: 42)
    let ids = Locked<[Int]>([])
    let idsEnded = await finishes { ids.value = await engine.signal(ticket) { $0.id }.toArray() }
    #expect(idsEnded && ids.value == [42], "a `let` property")
    let notes = Locked<[String]>([])
    let notesEnded = await finishes { notes.value = await engine.signal(ticket) { $0.note }.toArray() }
    #expect(notesEnded && notes.value == ["draft"], "an @ObservationIgnored property")
    // A value that reads tracked state as well is observed as before.
    var statuses = engine.signal(ticket) { "\($0.id) \($0.status)" }.values.makeAsyncIterator()
    #expect(await statuses.next() == "42 open")
    ticket.status = "closed"
    #expect(await statuses.next() == "42 closed")
    withExtendedLifetime(ticket) {}
  }

  @Test("an evaluation that tracked nothing completes after its object goes away too", arguments: ObservationEngine.allCases)
  func trackedNothingObjectGone(engine: ObservationEngine) async {
    var ticket: Ticket? = Ticket(id: 7)
    let signal = engine.signal(ticket!) { $0.id }
    var values = signal.values.makeAsyncIterator()
    let first = await values.next()
    ticket = nil
    let second = await values.next()
    #expect(first == 7 && second == nil)
  }
}
