import AsyncSignals
import AsyncSignalsInterop
import Dispatch
import Foundation
import Testing

/// A main-actor view model in the shape a new user writes: its state is main-actor isolated, and its
/// subscription's closures assign to it directly, which only a `@MainActor` closure may do.
@MainActor
final class SearchModel {
  var results: [String] = []
  var failure: String?
  var isDone = false
  var subscription: (any Disposable)?

  func follow(_ searches: Signal<[String], TestError>) {
    subscription = searches.subscribeNext(
      onMainThread: { self.results = $0 },
      error: { self.failure = "code \($0.code)" },
      completed: { self.isDone = true })
  }
}

/// Runs `body` on a new thread and blocks until it returns: the main queue cannot run meanwhile.
func onPlainThread(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  Thread {
    body()
    done.signal()
  }.start()
  done.wait()
}

/// Waits, from the main actor, until the main queue has run everything queued so far.
@MainActor
private func mainQueueDrained() async {
  await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
}

@Suite("subscribeNext(onMainThread:): main-actor closures, at once on the main queue")
struct MainThreadDeliveryTests {
  @Test("from @MainActor code: a value sent on the main queue is set before sendNext returns")
  @MainActor
  func atOnceFromMainActorClass() {
    let model = SearchModel()
    let searches = Subject<[String], TestError>()
    model.follow(searches)
    searches.sendNext(["swift"])
    #expect(model.results == ["swift"])  // no hop
    searches.sendError(TestError(code: 4))
    #expect(model.failure == "code 4")
    #expect(!model.isDone)
  }

  @Test("subscribing from the main actor to a signal that sends at once: delivered before subscribeNext returns")
  @MainActor
  func atOnceWhileSubscribing() {
    let current = BehaviorSubject<Int, Never>(value: 7)
    let screen = Screen()
    let subscription = current.subscribeNext(onMainThread: { screen.lines.append("\($0)") })
    #expect(screen.lines == ["7"])
    subscription.dispose()
  }

  @Test("a value sent from another thread is queued and delivered later on the main actor, in order")
  @MainActor
  func queuedFromAnotherThread() async {
    let screen = Screen()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(
      onMainThread: {
        MainActor.assertIsolated()
        screen.lines.append("\($0)")
      },
      completed: { screen.lines.append("done") })
    onPlainThread {
      for value in 1...3 { subject.sendNext(value) }
      subject.sendCompleted()
    }
    #expect(screen.lines.isEmpty)  // the main queue has not run since: nothing delivered yet
    await mainQueueDrained()
    #expect(screen.lines == ["1", "2", "3", "done"])
    subscription.dispose()
  }

  @Test("a send on the main queue never overtakes a value already queued")
  @MainActor
  func neverOvertakes() async {
    let screen = Screen()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(onMainThread: { screen.lines.append("\($0)") })
    onPlainThread {
      subject.sendNext(1)  // queued for a main-queue job
    }
    subject.sendNext(2)  // on the main queue, but 1 is waiting: queued behind it
    screen.lines.append("sendNext(2) returned")
    await mainQueueDrained()
    #expect(screen.lines == ["sendNext(2) returned", "1", "2"])
    subscription.dispose()
  }

  @Test("a value sent from inside a closure is delivered after that closure returns")
  @MainActor
  func reentrantSendAfterClosure() {
    let screen = Screen()
    let subject = Subject<Int, Never>()
    let subscription = subject.subscribeNext(onMainThread: { value in
      screen.lines.append("begin \(value)")
      if value == 1 { subject.sendNext(2) }
      screen.lines.append("end \(value)")
    })
    subject.sendNext(1)
    #expect(screen.lines == ["begin 1", "end 1", "begin 2", "end 2"])
    subscription.dispose()
  }

  @Test("disposing on the main actor: nothing more is delivered, even what was queued, and closures are released")
  @MainActor
  func disposeStopsAndReleases() async {
    weak var tracked: Tracked?
    let screen = Screen()
    let subject = Subject<Int, Never>()
    let subscription: any Disposable
    do {
      let object = Tracked()
      tracked = object
      subscription = subject.subscribeNext(onMainThread: { value in
        withExtendedLifetime(object) {}
        screen.lines.append("\(value)")
      })
    }
    onPlainThread {
      subject.sendNext(1)
    }
    subscription.dispose()
    await mainQueueDrained()
    #expect(screen.lines.isEmpty)
    #expect(tracked == nil)
  }
}
