import Dispatch
import Testing

@testable import AsyncSignals

/// `Demand.room()` runs in its caller's isolation (`nonisolated(nonsending)`, issue 27): a producer on the main actor
/// that finds room goes on without leaving it, so a bounded loop fed from the main actor does not hop off and back
/// twice per value.
@MainActor
@Suite("Demand: room() stays in the caller's isolation")
struct DemandIsolationTests {
  @Test("with room, room() returns on the main actor without letting a queued main-queue job run first")
  func roomStaysOnTheMainActor() async {
    let demand = Demand()
    let ran = Locked(false)
    DispatchQueue.main.async { ran.value = true }  // would run while the caller had left the main actor
    await demand.room()
    #expect(!ran.value)
    MainActor.assertIsolated()
  }
}
