/// Flow control, a known failure (run only when named): `BoundedCancellation` with one more invariant, that a source
/// stops at the bound while its loop ends too, producing at most what the loop took, the bound and one in flight.
///
/// The library fails it today. `SignalSequenceStorage.cancel()` ends the demand (which opens it for good) under its
/// lock, and disposes the subscription only after releasing the lock, while the finished buffer drops the values it
/// receives without closing the demand. So a source that was running (the buffer had room) when its loop began to end
/// runs on until the disposal reaches it: up to about 1,300 values under ThreadSanitizer and 60,000 optimised, in the
/// runs that introduced it, all dropped, and none after the loop has ended (which `BoundedCancellation` checks).
/// Closing the demand under the lock, disposing, and only then ending the demand brought that to 0 in a local try.
struct BoundedCancellationStrictRace: Scenario {
  static let reason =
    "a source running when its loop begins to end runs on until the disposal reaches it: the buffer ends (opens) its "
    + "demand before disposing the subscription (SignalSequenceStorage.cancel)"

  private let base = BoundedCancellationRace(strict: true)

  var name: String { base.name }
  var race: String { base.race }
  var invariants: [String] { base.invariants }
  var sabotage: String { base.sabotage }
  var knownFailure: String? { base.knownFailure }
  var report: String? { base.report }

  func threads(requested: Int) -> Int { base.threads(requested: requested) }

  func iterate(_ iteration: Iteration) { base.iterate(iteration) }
}
