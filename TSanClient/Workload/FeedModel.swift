import AsyncSignalsInterop

/// The view model: a feed whose updates come from tasks that `await send` into a `Subject`, read on the main actor by
/// a bounded loop, as a screen would.
@MainActor
final class FeedModel {
  private(set) var items: [Update] = []
  private let updates = Subject<Update, Never>()

  /// One update: which task sent it and its number in that task's sequence.
  struct Update: Sendable, Equatable {
    let sender: Int
    let sequence: Int
    static let ready = Update(sender: -1, sequence: -1)
  }

  /// Reads the feed until it completes, while `senders` tasks each send `perSender` updates; returns what went wrong.
  /// Each sender's updates must arrive once and in its order, and all of them must arrive.
  func follow(senders: Int, perSender: Int, sabotage: Sabotage?) async -> [String] {
    var feeders: Task<Void, Never>?
    var next = [Int](repeating: 0, count: senders)
    var problems: [String] = []
    for await update in updates.startWith(.ready).values(bufferingPolicy: .bounded(16)) {
      guard update != .ready else {
        // The loop has subscribed: nothing sent from now on is lost.
        let updates = self.updates
        feeders = Task.detached {
          await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
              group.addTask {
                for sequence in 0..<perSender {
                  if sequence.isMultiple(of: 50) { await sabotage?.touch() }
                  await updates.send(Update(sender: sender, sequence: sequence))
                }
              }
            }
          }
          updates.sendCompleted()
        }
        continue
      }
      if update.sender < 0 || update.sender >= senders || update.sequence != next[update.sender] {
        problems.append("feed: got \(update), expected sequence \(next[max(0, min(update.sender, senders - 1))])")
        if problems.count > 5 { break }
        continue
      }
      next[update.sender] += 1
      items.append(update)
    }
    await feeders?.value
    if problems.isEmpty && items.count != senders * perSender {
      problems.append("feed: \(items.count) of \(senders * perSender) updates arrived (per sender: \(next))")
    }
    return problems
  }
}
