import AsyncSignals
import Synchronization

/// The cost of never making a sender wait (guarantee 1): one slow subscriber facing fast producers on four
/// threads through `Signal.merge`, `Signal.zip` or `Signal.combineLatest` of four subjects.
///
/// Thread `t` sends 0, 1, … 499 into subject `t`, then completes it. The subscriber spends a few microseconds on
/// each value. Whichever producer reaches the operator first delivers; the others hand their values to it and
/// return at once, so the operator queues them (merge and combineLatest in the outbox, zip in its input buffers
/// as well). Afterwards every value must have arrived exactly once and in each sender's order — for zip, the n-th
/// tuple holds each input's n-th value; for combineLatest, each tuple after the first advances exactly one
/// component by one — and the result must have completed. The scenario reports the queue's high-water mark: the
/// most values ever sent (their `sendNext` had returned) but not yet reflected in what the subscriber had
/// finished with. That is the memory a slow subscriber costs.
struct SlowSubscriberRace: Scenario {
  static let values = "every value arrives exactly once, each sender's values in the order sent"
  static let completion = "the result completes once, after every value"

  /// The highest backlog seen in any iteration, in values.
  static let highWaterMark = Atomic<Int>(0)
  /// The operator of the iteration that saw it.
  static let highWaterOperator = LockedBox("")

  static let perSender = 500
  static let operators = ["merge", "zip", "combineLatest"]

  let name = "SlowSubscriber"
  let race = "four producer threads send into merge / zip / combineLatest of four subjects; the subscriber is slow"
  let invariants = [values, completion, Delivery.serial, Delivery.terminal]
  let sabotage = DroppingHandOff.description

  func threads(requested: Int) -> Int { 4 }

  var report: String? {
    let mark = Self.highWaterMark.load(ordering: .relaxed)
    let stride = MemoryLayout<Event<Int, StressFailure>?>.stride
    return "queue high-water mark: \(mark) values (\(Self.highWaterOperator.value), 4 producers × \(Self.perSender) "
      + "values); queued as Int events that is \(mark * stride) bytes (\(stride) each)"
  }

  func iterate(_ iteration: Iteration) {
    let count = Self.perSender
    let kind = Self.operators[iteration.number % Self.operators.count]
    let subjects = (0..<4).map { _ in Subject<Int, StressFailure>() }
    let inputs: [Signal<Int, StressFailure>] =
      iteration.isSabotaged ? DroppingHandOff.gate(subjects.map { $0 }) : subjects.map { $0 }
    let combined: Signal<[Int], StressFailure>
    switch kind {
    case "merge":
      combined = Signal.merge(inputs.enumerated().map { index, input in input.map { index * 1_000_000 + $0 } })
        .map { [$0] }
    case "zip":
      combined = Signal.zip(inputs[0], inputs[1], inputs[2], inputs[3]).map { [$0, $1, $2, $3] }
    default:
      combined = Signal.combineLatest(inputs[0], inputs[1], inputs[2], inputs[3]).map { [$0, $1, $2, $3] }
    }
    // Input values the subscriber has finished with: for merge one per value, for zip four per tuple, for
    // combineLatest the values each component stands for (component + 1 each).
    let reflected = Atomic<Int>(0)
    let sent = Atomic<Int>(0)
    let mark = Atomic<Int>(0)
    let spin = Atomic<Int>(0)
    let recorder = Recorder<[Int]> { _, event in
      guard let value = event.value else { return }
      for _ in 0..<300 { spin.wrappingAdd(1, ordering: .relaxed) }  // slow: a few microseconds per value
      let consumed: Int
      switch kind {
      case "merge": consumed = reflected.load(ordering: .relaxed) + 1
      case "zip": consumed = reflected.load(ordering: .relaxed) + 4
      default: consumed = value.reduce(0) { $0 + $1 + 1 }
      }
      reflected.store(consumed, ordering: .releasing)
    }
    let subscription = immediately { recorder.subscribe(to: combined) }
    iteration.race { thread, random in
      for value in 0..<count {
        subjects[thread].sendNext(value)
        let total = sent.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        let backlog = total - reflected.load(ordering: .acquiring)
        mark.max(backlog)
        if random.oneIn(64) { random.dawdle(1) }
      }
      subjects[thread].sendCompleted()
      iteration.count(count + 1)
    }
    subscription.dispose()
    recorder.checkDelivery(iteration)
    check(kind, recorder, count: count, iteration)
    let seen = mark.load(ordering: .relaxed)
    if Self.highWaterMark.max(seen) < seen { Self.highWaterOperator.value = kind }
  }

  private func check(_ kind: String, _ recorder: Recorder<[Int]>, count: Int, _ iteration: Iteration) {
    let outputs = recorder.values
    iteration.check(
      recorder.isCompleted && recorder.terminals == 1, Self.completion,
      "\(kind): \(outputs.count) values, then \(String(describing: recorder.events.last))")
    switch kind {
    case "merge":
      var next = [Int](repeating: 0, count: 4)
      for output in outputs {
        let (sender, value) = output[0].quotientAndRemainder(dividingBy: 1_000_000)
        guard value == next[sender] else {
          iteration.fail(Self.values, "merge: sender \(sender)'s \(value) arrived when \(next[sender]) was due")
          return
        }
        next[sender] += 1
      }
      iteration.check(
        next.allSatisfy { $0 == count }, Self.values, "merge: values per sender \(next), \(count) each were sent")
    case "zip":
      for (index, output) in outputs.enumerated() where output != [index, index, index, index] {
        iteration.fail(Self.values, "zip: tuple #\(index) is \(output)")
        return
      }
      iteration.check(outputs.count == count, Self.values, "zip: \(outputs.count) tuples of \(count)")
    default:
      for (previous, output) in zip(outputs, outputs.dropFirst()) {
        let steps = zip(previous, output).map { $1 - $0 }
        guard steps.filter({ $0 == 1 }).count == 1, steps.allSatisfy({ $0 == 0 || $0 == 1 }) else {
          iteration.fail(Self.values, "combineLatest: \(previous) was followed by \(output)")
          return
        }
      }
      iteration.check(
        outputs.last == [Int](repeating: count - 1, count: 4), Self.values,
        "combineLatest: the last tuple is \(String(describing: outputs.last))")
    }
  }
}

extension Atomic where Value == Int {
  /// Raises the value to `candidate` if it is higher; returns the value before.
  @discardableResult
  func max(_ candidate: Int) -> Int {
    var current = load(ordering: .relaxed)
    while candidate > current {
      let (exchanged, original) = compareExchange(
        expected: current, desired: candidate, ordering: .relaxed)
      if exchanged { return original }
      current = original
    }
    return current
  }
}
