import AsyncSignals
import Foundation
import Synchronization

/// Flow control: a stage's count (`Demand.take()`, `release(_:)`), which a hop or bounded concurrency keeps without a
/// lock. Only the take that reaches the limit takes the lock, to close the stage, and only a release that finds it
/// closed at `reopenAt` or fewer, to reopen it. A release that brings the count down while a take is closing the
/// stage must not be lost: either the release sees the stage closed, or the close sees the count down.
///
/// Thread 0 produces: it takes a place while the stage has room, and otherwise registers a resumption and waits for
/// it (5 s at most: a lost reopening leaves it waiting for good). Threads 1 and 2 release what is in hand, one to
/// three places at a time, as a hop's block or a finishing inner does. The limit is 1 to 8 and `reopenAt` 0 to
/// limit − 1, so that closing and reopening race at every size.
struct StageCountRace: Scenario {
  static let resumed = "a producer paused on a full stage is resumed once enough is released: no reopening is lost"
  static let bounded = "the producer never holds more places than the limit"
  static let openAtRest = "once everything is released, the stage has room"

  let name = "StageCount"
  let race =
    "a producer takes places in a stage (limit 1–8) while two threads release them; closing races reopening"
  let invariants = [resumed, bounded, openAtRest]
  let sabotage = LosingStage.description

  func threads(requested: Int) -> Int { 3 }

  func iterate(_ iteration: Iteration) {
    var random = iteration.random()
    let limit = 1 + random.below(8)
    let reopenAt = random.below(limit)
    let count = 2_000
    let stage = StageUnderTest(limit: limit, reopenAt: reopenAt, sabotaged: iteration.isSabotaged)
    let inHand = Atomic<Int>(0)
    let produced = Flag()  // set once the producer has ended, so the releasers stop once nothing is in hand
    iteration.race { thread, random in
      if thread == 0 {
        defer { produced.set() }
        for _ in 0..<count {
          while !stage.hasRoom {
            let woken = DispatchSemaphore(value: 0)
            guard stage.resume(whenRoom: { woken.signal() }) else { continue }  // room already: look again
            guard woken.wait(timeout: .now() + 5) == .success else {
              iteration.fail(
                Self.resumed,
                "limit \(limit), reopenAt \(reopenAt): still paused after 5 s with "
                  + "\(inHand.load(ordering: .relaxed)) in hand")
              return
            }
          }
          stage.take()
          let held = inHand.add(1, ordering: .relaxed).newValue
          iteration.check(held <= limit, Self.bounded, "limit \(limit): \(held) places in hand")
        }
        iteration.count(count)
        return
      }
      while !produced.isSet || inHand.load(ordering: .relaxed) > 0 {
        let held = inHand.load(ordering: .relaxed)
        guard held > 0 else {
          random.dawdle(2)
          continue
        }
        let batch = min(held, 1 + random.below(3))
        guard inHand.compareExchange(expected: held, desired: held - batch, ordering: .relaxed).exchanged else {
          continue
        }
        if random.oneIn(4) { random.dawdle(4) }
        stage.release(batch)
      }
    }
    iteration.check(
      stage.hasRoom, Self.openAtRest, "limit \(limit), reopenAt \(reopenAt): closed with nothing in hand")
  }
}

/// The stage under test: the library's `Demand`, or the broken twin.
struct StageUnderTest: Sendable {
  private let library: Demand?
  private let twin: LosingStage?

  init(limit: Int, reopenAt: Int, sabotaged: Bool) {
    if sabotaged {
      library = nil
      twin = LosingStage(limit: limit, reopenAt: reopenAt)
    } else {
      library = Demand(parent: Demand(), limit: limit, reopenAt: reopenAt)
      twin = nil
    }
  }

  var hasRoom: Bool { library?.hasRoom ?? twin?.hasRoom ?? true }

  func take() {
    library?.take()
    twin?.take()
  }

  func release(_ count: Int) {
    library?.release(count)
    twin?.release(count)
  }

  /// Registers `resumption`; `false` if there is room now.
  func resume(whenRoom resumption: @escaping @Sendable () -> Void) -> Bool {
    if let library { return library.resume(whenRoom: resumption) != nil }
    return twin?.resume(whenRoom: resumption) ?? false
  }
}
