/// The scenarios by family, in the order a default run takes them (and `--list` shows them).
let scenarioFamilies: [(family: String, scenarios: [any Scenario])] = [
  ("Disposables", [ActionDisposableRace(), CompoundDisposableRace(), SerialDisposableRace()]),
  (
    "Serial delivery, terminal events, subscription scheduling, leaks",
    [
      SerialDeliveryRace(), TerminalRaceScenario(), SubscriptionSchedulingRace(), LeaksRace(), SubscriberChurnRace(),
    ]
  ),
  ("Subjects", [SubjectRace(), ReplaySubjectRace(), SubjectTurnRace(), SubjectAttachRace()]),
  (
    "Combining operators",
    [
      ZipRace(), ZipNestedRace(), ZipEarlyEndRace(), ZipTurnRace(), CombineLatestRace(), MergeRace(), FlattenRace(),
      FlattenMapRace(), ConcatRace(), ConcatCollectionRace(), SwitchToLatestRace(), SlowSubscriberRace(),
    ]
  ),
  ("Multicast and Command", [ConnectRace(), AutoconnectRace(), ShareRace(), CommandRace()]),
  ("Time operators on real queue schedulers", [TimeoutRace(), DeliverOnRace()]),
  ("Interop (AsyncSignalsInterop)", [ForAwaitRace(), BufferingRace(), ObservationCountRace()]),
  (
    "Flow control (.bounded(n): issue 19's hang shapes, cancellation, the cold bound; issue 28's concurrency, hops, await send)",
    [
      BoundedBufferingRace(), BoundedEchoRace(), BoundedConsumerQueueRace(), BoundedCancellationRace(),
      BoundedColdSourceRace(), BoundedFlattenRace(), BoundedMergeRace(), BoundedHopRace(), SubjectSendRace(),
      BoundedRingRace(), StageCountRace(),
    ]
  ),
  (
    "Actors",
    [
      IsolatedDeliveryRace(), ActorSchedulerRace(), SchedulerReuseRace(), ActorFloodRace(), BoundedActorRace(),
      BoundedActorResumeRace(), BoundedActorBacklogRace(),
    ]
  ),
  (
    "Deadlock shapes (re-entrancy, and what peer libraries shipped; Autoconnect races first subscriptions too)",
    [ZipReentrantRace(), SubjectEchoRace(), ZipReplayTakeRace(), MergeForeignLockRace(), ReplayDisposeRace()]
  ),
  ("Known failures (run only when named)", [ZipCrossFeedRace()]),
]

/// Every scenario, in the order a default run takes them.
let allScenarios: [any Scenario] = scenarioFamilies.flatMap(\.scenarios)
