import Dispatch

/// Suspends until the main queue has run every block queued on it before this call, then returns on the caller's
/// actor. The main queue is serial and first in, first out, so the block this queues runs after them: a main-actor
/// delivery (`subscribeNext(onMainActor:)`, one main-queue job per burst of fewer than the delivery budget's 128
/// events) already queued when this is called has been made when it returns. A test that has just seen a value
/// which a main-actor subscription made before its own received first awaits this to see that subscription's effect.
func mainQueueTurn() async {
  await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
}
