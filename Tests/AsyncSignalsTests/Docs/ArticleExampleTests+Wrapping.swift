import AsyncSignals
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

// MARK: GettingStarted.md — wrapping a callback API and a timer in `create`

struct LookupFailed: Error {}

/// The callback API of the sample: `lookUp` keeps the completion until the test answers, and its request records
/// a cancellation. It stands for an SDK that answers on a thread of its own.
final class FakeGeocoder: Sendable {
  final class Request: Sendable {
    let cancelled = Locked(false)
    let completion: @Sendable (Result<String, LookupFailed>) -> Void
    init(_ completion: @escaping @Sendable (Result<String, LookupFailed>) -> Void) { self.completion = completion }
    func cancel() { cancelled.value = true }
  }

  let requests = Locked<[Request]>([])

  func lookUp(_ address: String, completion: @escaping @Sendable (Result<String, LookupFailed>) -> Void) -> Request {
    let request = Request(completion)
    requests.append(request)
    return request
  }

  /// Calls the completion of the `index`th lookup, as the SDK would when its answer arrives.
  func answer(_ index: Int, with result: Result<String, LookupFailed>) {
    requests.value[index].completion(result)
  }
}

extension ArticleExampleTests {
  @Test("GettingStarted: a callback API in create sends its answer, fails typed, and cancels on disposal")
  func gettingStartedCallbackAPI() {
    let geocoder = FakeGeocoder()
    func place(for address: String) -> Signal<String, LookupFailed> {
      Signal.create { subscriber in
        let request = geocoder.lookUp(address) { result in
          switch result {
          case .success(let place):
            subscriber.sendNext(place)
            subscriber.sendCompleted()
          case .failure(let error):
            subscriber.sendError(error)
          }
        }
        return ActionDisposable { request.cancel() }  // disposing the subscription cancels the lookup
      }
    }
    let answered = place(for: "1 Infinite Loop").subscribeNext(
      { print("place", $0) }, error: { _ in print("failed") }, completed: { print("done") })
    geocoder.answer(0, with: .success("Cupertino"))
    #expect(console.lines == ["place Cupertino", "done"])
    #expect(geocoder.requests.value[0].cancelled.value)  // completion ends the subscription: the cleanup runs
    answered.dispose()

    console.reset()
    place(for: "nowhere").subscribeNext({ print("place", $0) }, error: { _ in print("failed") })
    geocoder.answer(1, with: .failure(LookupFailed()))
    #expect(console.lines == ["failed"])

    console.reset()
    let abandoned = place(for: "2 Main St").subscribeNext({ print("place", $0) }, error: { _ in print("failed") })
    #expect(geocoder.requests.value.count == 3)  // each subscription starts its own lookup
    abandoned.dispose()
    #expect(geocoder.requests.value[2].cancelled.value)
    geocoder.answer(2, with: .success("too late"))  // after disposal: dropped
    #expect(console.lines.isEmpty)
  }

  @Test("GettingStarted: a scheduler's timer returned from create is cancelled by disposal")
  func gettingStartedTimer() {
    func heartbeat(every interval: Duration, on scheduler: any Scheduler) -> Signal<String, Never> {
      Signal.create { subscriber in
        scheduler.schedule(after: scheduler.now, repeatingEvery: interval, leeway: .zero) {
          subscriber.sendNext("beat")
        }
      }
    }
    let scheduler = TestScheduler()
    let beats = heartbeat(every: .seconds(1), on: scheduler).subscribeNext { print($0) }
    scheduler.advance(by: .seconds(2))
    // beat, beat, beat
    beats.dispose()  // cancels the timer
    scheduler.advance(by: .seconds(5))
    // nothing more
    #expect(console.lines == ["beat", "beat", "beat"])  // at 0, 1 and 2 s; without the cancellation, 5 more
  }
}
