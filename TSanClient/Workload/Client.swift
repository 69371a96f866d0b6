import AsyncSignalsInterop
import Foundation

/// Runs the client for `--seconds` (2 by default), round after round, and returns the exit status: 0 when every round
/// got what it must, 1 on a violation or bad arguments. A ThreadSanitizer report makes the process exit with 66.
///
/// Each round runs the ingest service's two pipelines and the feed at once, as one process of a client would:
/// `Ingest.ordered` and `Ingest.stored` (2,000 records each) and `FeedModel.follow` (4 senders of 500 updates).
@MainActor
package func runClient(name: String, arguments: [String]) async -> Int32 {
  var seconds = 2.0
  var sabotage: Sabotage?
  var quiet = false
  var remaining = arguments[...]
  while let argument = remaining.popFirst() {
    switch argument {
    case "--seconds":
      guard let value = remaining.popFirst().flatMap(Double.init), value >= 0 else { return usage(name) }
      seconds = value
    case "--sabotage":
      guard let kind = remaining.popFirst().flatMap(Sabotage.Kind.init(rawValue:)) else { return usage(name) }
      sabotage = Sabotage(kind)
    case "--quiet":
      quiet = true
    default:
      return usage(name)
    }
  }

  let count = 2_000
  let start = ContinuousClock.now
  var rounds = 0
  repeat {
    async let ordered = Ingest.ordered(count: count)
    async let stored = Ingest.stored(count: count, sabotage: sabotage)
    let feed = await FeedModel().follow(senders: 4, perSender: count / 4, sabotage: sabotage)
    let problems = await ordered + stored + feed
    rounds += 1
    if !problems.isEmpty {
      for problem in problems { print("VIOLATION [round \(rounds)] \(problem)") }
      return 1
    }
  } while ContinuousClock.now - start < .seconds(seconds)

  if !quiet {
    print(
      "\(name): \(rounds) rounds in \(ContinuousClock.now - start), each with \(count) records in order,",
      "\(count) stored 4 at a time and \(count) updates from 4 senders: ok")
  }
  return 0
}

private func usage(_ name: String) -> Int32 {
  print(
    """
    usage: \(name) [--seconds S] [--sabotage \(Sabotage.Kind.allCases.map(\.rawValue).joined(separator: "|"))] [--quiet]
    """)
  return 1
}
