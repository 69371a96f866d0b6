import AsyncSignals
import AsyncSignalsInterop

/// How a loop consumes a signal: Interop's `values` (the library), or the broken twin.
enum AsyncBridge {
  /// Runs `for try await` over the signal's values; returns the values and the failure's code, if it failed.
  static func loop(_ signal: Signal<Int, StressFailure>, sabotaged: Bool) async -> (values: [Int], failure: Int?) {
    sabotaged ? await consume(UnsubscribingStream.values(of: signal)) : await consume(signal.values)
  }

  static func consume<S: AsyncSequence>(_ sequence: S) async -> (values: [Int], failure: Int?) where S.Element == Int {
    var values: [Int] = []
    do {
      for try await value in sequence { values.append(value) }
      return (values, nil)
    } catch {
      return (values, (error as? StressFailure)?.code ?? .min)
    }
  }
}

/// Interop: `for await` (and `await toArray()`) cancelled while its signal completes or fails.
///
/// Thread 0 starts six tasks, each consuming one `create` signal: `for try await` over `values` (even loops) or
/// `await toArray()` (odd ones); each body runs at once, in its consuming task (a task is a current context for
/// subscribing: guarantee 5).
/// Thread 1 cancels half of the tasks at random moments. Thread 2 feeds the signals one after the other: up to 20
/// values, then completion (or, for one loop in three, a failure) — but it stops, without ending the signal, as
/// soon as the loop has ended, like a signal that would never end by itself. So a loop ended by cancellation
/// must have disposed its subscription: nothing else will.
struct ForAwaitRace: Scenario {
  static let endsOnce = "each loop ends exactly once: with the signal's completion or failure, or at cancellation"
  static let values =
    "a loop receives a prefix of the values sent, in order; all of them, and the failure, unless it was cancelled"
  static let disposed = "the subscription is disposed exactly once (the body's cleanup runs once) when the loop ends"

  let name = "ForAwait"
  let race = "six tasks loop over signals (for await / toArray) while one thread cancels them and one completes them"
  let invariants = [endsOnce, values, disposed]
  let sabotage = UnsubscribingStream.description

  func threads(requested: Int) -> Int { 3 }

  private struct Outcome {
    var values: [Int]
    var failure: Int?
  }

  func iterate(_ iteration: Iteration) {
    let loops = 6
    let count = 20
    let sabotaged = iteration.isSabotaged
    let subscribers = (0..<loops).map { _ in Slots<any Subscriber<Int, StressFailure>>(capacity: 1) }
    let cleanups = (0..<loops).map { Probe(id: $0) }
    let signals = (0..<loops).map { loop in
      Signal<Int, StressFailure>.create { subscriber in
        subscribers[loop].publish(subscriber)
        return cleanups[loop]
      }
    }
    let ends = (0..<loops).map { _ in Tally() }
    let ended = (0..<loops).map { _ in Flag() }
    let outcomes = LockedBox<[Int: Outcome]>([:])
    let allEnded = Latch()
    let tasks = Slots<Task<Void, Never>>(capacity: loops)
    let cancelled = Owned<Set<Int>>([])
    let sent = Owned<[Int: (count: Int, failure: Int?)]>([:])
    iteration.race(withCurrentScheduler: false) { thread, random in
      switch thread {
      case 0:
        for loop in 0..<loops {
          tasks.publish(
            Task.detached {
              let outcome: Outcome
              if loop % 2 == 1 && !sabotaged {
                do throws(StressFailure) {
                  outcome = Outcome(values: try await signals[loop].toArray(), failure: nil)
                } catch {
                  outcome = Outcome(values: [], failure: error.code)
                }
              } else {
                let (values, failure) = await AsyncBridge.loop(signals[loop], sabotaged: sabotaged)
                outcome = Outcome(values: values, failure: failure)
              }
              outcomes.withLock { $0[loop] = outcome }
              ends[loop].increment()
              ended[loop].set()
              allEnded.signal()
            })
        }
        if !allEnded.wait(for: loops, seconds: 10) {
          let stuck = (0..<loops).filter { !ended[$0].isSet }
          iteration.fail(Self.endsOnce, "loops \(stuck) had not ended 10 s after their signals ended or were cancelled")
        }
        iteration.count(loops)
      case 1:
        for loop in 0..<loops where random.oneIn(2) {
          while tasks.count <= loop { random.dawdle(1) }
          random.dawdle(16)
          tasks[loop].cancel()
          cancelled.value.insert(loop)
        }
        iteration.count(cancelled.value.count)
      default:
        for loop in 0..<loops {
          while subscribers[loop].count == 0 && !ended[loop].isSet { random.dawdle(1) }
          guard subscribers[loop].count == 1 else { continue }
          let subscriber = subscribers[loop][0]
          var number = 0
          while number < count && !ended[loop].isSet {
            subscriber.sendNext(number)
            number += 1
            if random.oneIn(4) { random.dawdle(2) }
          }
          guard !ended[loop].isSet else {
            sent.value[loop] = (number, nil)
            continue
          }
          let failure = loop % 3 == 2 ? loop : nil
          if let failure { subscriber.sendError(StressFailure(code: failure)) } else { subscriber.sendCompleted() }
          sent.value[loop] = (number, failure)
          iteration.count(number + 1)
        }
      }
    }
    drainBackgroundScheduler(iteration)
    let finalOutcomes = outcomes.value
    for loop in 0..<loops {
      iteration.check(ends[loop].value == 1, Self.endsOnce, "loop \(loop) ended \(ends[loop].value) times")
      guard let outcome = finalOutcomes[loop] else { continue }
      let (sentCount, failure) = sent.value[loop] ?? (0, nil)
      let wasCancelled = cancelled.value.contains(loop)
      // `toArray()` throws its failure and drops the values.
      let expected = outcome.failure != nil && loop % 2 == 1 && !iteration.isSabotaged ? 0 : sentCount
      let prefix = outcome.values == Array(0..<outcome.values.count) && outcome.values.count <= expected
      iteration.check(
        prefix && (wasCancelled || (outcome.values.count == expected && outcome.failure == failure)), Self.values,
        "loop \(loop)\(wasCancelled ? " (cancelled)" : ""): received \(outcome.values) and failure "
          + "\(String(describing: outcome.failure)); \(sentCount) values and failure "
          + "\(String(describing: failure)) sent")
      let ran = subscribers[loop].count
      iteration.check(
        cleanups[loop].disposeCount == ran, Self.disposed,
        "loop \(loop)\(wasCancelled ? " (cancelled)" : ""): the body ran \(ran) times, its cleanup was disposed "
          + "\(cleanups[loop].disposeCount) times")
    }
  }
}
