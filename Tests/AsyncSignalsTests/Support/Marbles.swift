import Foundation
import Testing

@testable import AsyncSignals

// Marble diagrams on a `TestScheduler`, as in swift-async-algorithms' tests: one character per tick of virtual
// time (one second unless told otherwise).
//
//   `-`  nothing happens in this tick
//   `|`  completion
//   `#`  failure, `TestError()`
//   any other character: that value, as a one-character `String`
//   `(…)` in an output diagram: several events in one tick, in the order they were sent, e.g. `(b|)`
//
// The source's events are scheduled when the diagram is made, so at any instant they run before the timers an
// operator starts later for that same instant (the test scheduler runs same-instant work in scheduling order).

extension TestScheduler {
  /// A hot source that sends the diagram's events, tick 0 being the current time. The events are sent from the
  /// scheduler's blocks, so the scheduler is ``Schedulers/current`` while they are delivered.
  func marbles(_ diagram: String, tick: Duration = .seconds(1)) -> Subject<String, TestError> {
    let subject = Subject<String, TestError>()
    for (index, symbol) in diagram.enumerated() where symbol != "-" {
      schedule(afterDelay: tick * index) {
        switch symbol {
        case "|": subject.sendCompleted()
        case "#": subject.sendError(TestError())
        default: subject.sendNext(String(symbol))
        }
      }
    }
    return subject
  }

  /// Subscribes to `signal` now, advances the clock by `ticks` ticks, and draws what the signal sent, up to
  /// its last event.
  func diagram(of signal: Signal<String, TestError>, ticks: Int = 20, tick: Duration = .seconds(1)) -> String {
    let start = now
    let events = Locked<[(tick: Int, symbol: String)]>([])
    let record: @Sendable (String) -> Void = { symbol in
      let elapsed = self.now.timeIntervalSince(start) / tick.timeInterval
      let index = Int(elapsed.rounded())
      if abs(elapsed - Double(index)) > 1e-9 { Issue.record("\(symbol) was sent between ticks, at \(elapsed)") }
      events.append((index, symbol))
    }
    signal.subscribeNext({ record($0) }, error: { _ in record("#") }, completed: { record("|") })
    advance(by: tick * ticks)
    let recorded = events.value
    guard let last = recorded.last?.tick else { return "" }
    return (0...last).map { index in
      let symbols = recorded.filter { $0.tick == index }.map(\.symbol)
      switch symbols.count {
      case 0: return "-"
      case 1: return symbols[0]
      default: return "(" + symbols.joined() + ")"
      }
    }.joined()
  }
}
