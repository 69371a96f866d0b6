/// Every scenario, in the order a default run takes them.
let allScenarios: [any Scenario] = [
  ActionDisposableRace(),
  CompoundDisposableRace(),
  SerialDisposableRace(),
  ZipRace(),
  ZipNestedRace(),
  ZipEarlyEndRace(),
  SerialDeliveryRace(),
  TerminalRaceScenario(),
  SubjectRace(),
  FlattenMapRace(),
  ZipReentrantRace(),
  LeaksRace(),
  SubscriptionSchedulingRace(),
  ConcatRace(),
  SubjectEchoRace(),
  ZipCrossFeedRace(),
]
