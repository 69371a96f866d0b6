import Dispatch
import Testing

@testable import AsyncSignals

@Suite("ActionDisposable")
struct ActionDisposableTests {
  @Test("runs its action on the first dispose only")
  func runsOnce() {
    let runs = Locked(0)
    let disposable = ActionDisposable { runs.increment() }
    #expect(!disposable.isDisposed)
    disposable.dispose()
    disposable.dispose()
    #expect(runs.value == 1)
    #expect(disposable.isDisposed)
  }

  @Test("without an action it only records disposal")
  func noAction() {
    let disposable = ActionDisposable()
    disposable.dispose()
    #expect(disposable.isDisposed)
  }

  @Test("disposed from 8 threads at once, the action runs exactly once (guarantee 3)")
  func concurrentDispose() {
    for _ in 0..<200 {
      let runs = Locked(0)
      let disposable = ActionDisposable { runs.increment() }
      DispatchQueue.concurrentPerform(iterations: 8) { _ in disposable.dispose() }
      #expect(runs.value == 1)
    }
  }

  @Test("releases its action after running it (guarantee 8)")
  func releasesAction() {
    let tracker = LifetimeTracker()
    var tracked: Tracked? = tracker.make()
    let disposable = ActionDisposable { [tracked] in _ = tracked }
    tracked = nil
    #expect(tracker.liveCount == 1)
    disposable.dispose()
    #expect(tracker.liveCount == 0)
  }

  @Test("asScoped wraps it, and a scoped disposable returns itself")
  func asScoped() {
    let disposable = ActionDisposable()
    let scoped = disposable.asScoped()
    #expect(scoped.wrapped === disposable)
    #expect(scoped.asScoped() === scoped)
  }

  @Test("an action that disposes its own disposable runs once and does not deadlock")
  func reentrantDispose() {
    let runs = Locked(0)
    let holder = Locked<ActionDisposable?>(nil)
    let disposable = ActionDisposable {
      runs.increment()
      holder.value?.dispose()
    }
    holder.value = disposable
    disposable.dispose()
    holder.value = nil
    #expect(runs.value == 1 && disposable.isDisposed)
  }
}
