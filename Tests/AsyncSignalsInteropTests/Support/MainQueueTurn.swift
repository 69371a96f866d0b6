import Dispatch

/// Suspends until the main queue has run every block queued on it before this call, then returns on the caller's
/// actor. The main queue is serial and first in, first out, so the block this queues runs after them: a main-actor
/// delivery (`subscribeNext(onMainActor:)`, one main-queue job per burst of fewer than the delivery budget's 128
/// events) already queued when this is called has been made when it returns. A test that has just seen a value
/// which a main-actor subscription made before its own received first awaits this to see that subscription's effect.
func mainQueueTurn() async {
  await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
}

/// Marks the main queue, once, for `isOnMainQueue()`.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
  let key = DispatchSpecificKey<Bool>()
  DispatchQueue.main.setSpecific(key: key, value: true)
  return key
}()

/// Whether the caller runs on the main queue, where the main actor runs. `Thread.isMainThread` does not tell: on
/// Linux the main queue may be drained by a thread other than the main one (after `dispatchMain()`).
func isOnMainQueue() -> Bool {
  DispatchQueue.getSpecific(key: mainQueueKey) == true
}
