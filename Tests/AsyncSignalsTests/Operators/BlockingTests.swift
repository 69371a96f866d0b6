import Dispatch
import Testing

@testable import AsyncSignals

/// Not `@MainActor`: blocking operators are for threads other than the main one. In a test's task a `create` body
/// runs at once (guarantee 5); the tests whose values come from another thread also wait across threads.
@Suite("Blocking: first, first(default:), waitUntilCompleted, toArray")
struct BlockingTests {
  private let patience = Duration.seconds(30)  // never reached unless the test fails

  // MARK: first

  /// On the main actor, so that the source's body runs inside `first`: its cleanup has run by the time
  /// `first` returns. (Elsewhere the body runs on a background thread and may still be sending when the
  /// waiting thread wakes up.)
  @Test("-first returns the first value and disposes the subscription after it")
  @MainActor
  func first() {
    let source = SyncSource<Int, TestError>([1, 2, 3])
    #expect(source.signal.first(timeout: patience) == .success(1))
    #expect(source.disposals.value == 1)
  }

  @Test("-first returns nil for a signal that completes without a value, and reports a failure")
  func firstEmptyAndFailure() {
    #expect(Signal<Int, TestError>.empty.first(timeout: patience) == .success(nil))
    let failing = Signal<Int, TestError>.error(TestError(code: 3))
    #expect(failing.first(timeout: patience) == .failure(TestError(code: 3)))
  }

  @Test("-first waits for a value sent later from another thread")
  func firstAcrossThreads() {
    let source = Signal<Int, Never>.create { subscriber in
      DispatchQueue.global().async { subscriber.sendNext(7) }
      return nil
    }
    #expect(source.first(timeout: patience) == .success(7))
  }

  @Test("-first times out, says so, and disposes the subscription")
  func firstTimesOut() {
    let subject = Subject<Int, TestError>()
    let result = subject.first(timeout: .milliseconds(20))
    #expect(result == .timedOut)
    #expect(result.isTimedOut && result.value == nil && result.failure == nil && result.result == nil)
    #expect(subject.subscriberCount == 0)
  }

  @Test("-firstOrDefault: returns the default when the signal completes without a value")
  func firstOrDefault() {
    #expect(Signal<Int, TestError>.empty.first(default: 5, timeout: patience) == .success(5))
    #expect(SyncSource<Int, TestError>([1, 2]).signal.first(default: 5, timeout: patience) == .success(1))
    let failing = Signal<Int, TestError>.error(TestError(code: 4))
    #expect(failing.first(default: 5, timeout: patience) == .failure(TestError(code: 4)))
    #expect(Signal<Int, TestError>.never.first(default: 5, timeout: .zero) == .timedOut)
  }

  // MARK: waitUntilCompleted

  @Test("-waitUntilCompleted: succeeds on completion, reports a failure, and times out")
  func waitUntilCompleted() {
    let completing = SyncSource<Int, TestError>([1, 2])
    #expect(completing.signal.waitUntilCompleted(timeout: patience).value != nil)
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 5)))
    #expect(failing.signal.waitUntilCompleted(timeout: patience).failure == TestError(code: 5))
    let subject = Subject<Int, TestError>()
    #expect(subject.waitUntilCompleted(timeout: .milliseconds(20)).isTimedOut)
    #expect(subject.subscriberCount == 0)
  }

  // MARK: toArray

  @Test("-toArray returns all the values in order, or the failure")
  func toArray() {
    #expect(SyncSource<Int, TestError>([1, 2, 3]).signal.toArray(timeout: patience) == .success([1, 2, 3]))
    #expect(Signal<Int, TestError>.empty.toArray(timeout: patience) == .success([]))
    let failing = SyncSource<Int, TestError>([1], then: .error(TestError(code: 6)))
    #expect(failing.signal.toArray(timeout: patience) == .failure(TestError(code: 6)))
  }

  @Test("-toArray waits for values sent from other threads and times out without a completion")
  func toArrayAcrossThreadsAndTimeout() {
    let source = Signal<Int, Never>.create { subscriber in
      DispatchQueue.global().async {
        for value in 0..<100 { subscriber.sendNext(value) }
        subscriber.sendCompleted()
      }
      return nil
    }
    #expect(source.toArray(timeout: patience) == .success(Array(0..<100)))
    let subject = Subject<Int, Never>()
    #expect(subject.toArray(timeout: .milliseconds(20)) == .timedOut)
    #expect(subject.subscriberCount == 0)
  }

  // MARK: Preconditions

  @Test("a negative timeout stops with a message naming the operator and the argument")
  func negativeTimeouts() async {
    let first = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.empty.first(timeout: .seconds(-1))
    }
    let firstMessage = String(decoding: first?.standardErrorContent ?? [], as: UTF8.self)
    #expect(firstMessage.contains("first(timeout:): timeout must not be negative"))
    let orDefault = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.empty.first(default: 0, timeout: .seconds(-1))
    }
    let orDefaultMessage = String(decoding: orDefault?.standardErrorContent ?? [], as: UTF8.self)
    #expect(orDefaultMessage.contains("first(default:timeout:): timeout must not be negative"))
    let wait = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.empty.waitUntilCompleted(timeout: .seconds(-1))
    }
    let waitMessage = String(decoding: wait?.standardErrorContent ?? [], as: UTF8.self)
    #expect(waitMessage.contains("waitUntilCompleted(timeout:): timeout must not be negative"))
    let array = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.empty.toArray(timeout: .seconds(-1))
    }
    let arrayMessage = String(decoding: array?.standardErrorContent ?? [], as: UTF8.self)
    #expect(arrayMessage.contains("toArray(timeout:): timeout must not be negative"))
  }
}
