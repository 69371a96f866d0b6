import AsyncSignals

/// Invariants every scenario that subscribes checks.
enum Delivery {
  static let serial = "serial delivery: no two callbacks of one subscriber overlap (guarantee 1)"
  static let terminal = "nothing after the terminal event; a terminal event at most once (guarantee 2)"
}

/// A subscriber that records what it receives, with no lock of its own (see `SerialState`).
///
/// `reaction`, if given, runs inside the callback after the event is recorded: re-entrant scenarios send,
/// subscribe or dispose from there. It must take no lock of its own on its usual path (a lock would order
/// the callbacks and hide from ThreadSanitizer a library that does not).
final class Recorder<Value: Sendable>: Sendable {
  typealias Entry = Event<Value, StressFailure>
  typealias Reaction = @Sendable (_ recorder: Recorder<Value>, _ event: Entry) -> Void

  let detector = OverlapDetector()
  let log = SerialState<[Entry]>([])
  private let reaction: Reaction?

  init(reaction: Reaction? = nil) {
    self.reaction = reaction
  }

  /// Subscribes with the three closures of `subscribeNext(_:error:completed:)`.
  func subscribe(to signal: Signal<Value, StressFailure>) -> any Disposable {
    signal.subscribeNext(
      { [self] value in record(.next(value)) }, error: { [self] error in record(.error(error)) },
      completed: { [self] in record(.completed) })
  }

  func record(_ event: Entry) {
    guard detector.enter() else { return }
    defer { detector.exit() }
    log.value.append(event)
    reaction?(self, event)
  }

  /// Read after the race has joined.
  var events: [Entry] { log.value }

  var values: [Value] { events.compactMap(\.value) }

  var terminals: Int { events.filter(\.isTerminating).count }

  var isCompleted: Bool { events.last?.isCompleted ?? false }

  /// Checks guarantees 1 and 2 on what was recorded.
  func checkDelivery(_ iteration: Iteration, _ who: String = "the subscriber") {
    iteration.check(
      detector.count == 0, Delivery.serial, "\(who) saw \(detector.count) callbacks start while another ran")
    let events = self.events
    if let first = events.firstIndex(where: \.isTerminating) {
      iteration.check(
        first == events.count - 1, Delivery.terminal,
        "\(who) received \(events.count - 1 - first) events after its terminal event \(events[first])")
    }
  }
}
