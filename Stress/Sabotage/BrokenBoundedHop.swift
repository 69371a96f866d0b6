import AsyncSignals

/// The broken twin of the hop's pause (`--sabotage BoundedHop`): a `deliver(on:)` built in the harness from the
/// package's flow-control API (`Signal.create(withDemand:)`, `subscribe(_:demand:)`, a stage `Demand` of 32 that
/// reopens at 16, as `DeliverStorage`'s), one scheduled block per event, with one of two bugs, chosen per loop:
/// - `ignoresStage`: its source is subscribed with no demand, as every hop was before issue 28: a source that can
///   pause never does, and runs ahead of the loop past n + k;
/// - `resumesInline`: its stage runs the resumptions a delivery frees on the delivering thread (no `resumeOn`): a
///   walk paused on the full hop resumes inside the hop's block — on the hop's scheduler, on the main queue behind
///   `deliverOnMainThread()`.
enum BrokenBoundedHop {
  enum Bug: Sendable {
    case ignoresStage, resumesInline
  }

  static let description =
    "a hop built on the package's demand API whose source ignores the stage (it runs ahead past n + k), or whose "
    + "stage resumes a paused source inline on the thread that delivered (the hop's, the main queue)"

  static func deliver(
    _ source: Signal<Int, StressFailure>, on scheduler: any Scheduler, bug: Bug
  ) -> Signal<Int, StressFailure> {
    .create(withDemand: { subscriber, consumer in
      // BUG (resumesInline): no `resumeOn`, so `release()` runs the freed resumptions on the delivering thread.
      let stage = consumer.map { Demand(parent: $0, limit: BoundedHopRace.hopCapacity, reopenAt: 16) }
      let relay = HopRelay(downstream: subscriber, scheduler: scheduler, stage: stage)
      // BUG (ignoresStage): the source never sees the stage, nor the consumer's demand behind it.
      let subscription = source.subscribe(relay, demand: bug == .ignoresStage ? nil : stage)
      return ActionDisposable {
        subscription.dispose()
        if let stage { for resumption in stage.end() { resumption() } }
      }
    })
  }
}

/// The twin's hop: each event through a block of its own on the scheduler, a value held in the stage until its block
/// has delivered it.
private struct HopRelay: Subscriber {
  let downstream: any Subscriber<Int, StressFailure>
  let scheduler: any Scheduler
  let stage: Demand?

  func sendNext(_ value: Int) {
    stage?.take()
    scheduler.schedule { [downstream, stage] in
      downstream.sendNext(value)
      stage?.release()
    }
  }

  func sendError(_ error: StressFailure) {
    scheduler.schedule { [downstream] in downstream.sendError(error) }
  }

  func sendCompleted() {
    scheduler.schedule { [downstream] in downstream.sendCompleted() }
  }
}
