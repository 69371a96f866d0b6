import Testing

@testable import AsyncSignals

@MainActor
@Suite("map and filter")
struct TransformingTests {
  @Test("map transforms values and passes terminal events through")
  func map() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.map { "\($0 * 2)" })
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendError(TestError(code: 3))
    #expect(recorder.events == [.next("2"), .next("4"), .error(TestError(code: 3))])
  }

  @Test("filter keeps the values that pass and passes completion through")
  func filter() {
    let subject = Subject<Int, TestError>()
    let recorder = EventRecorder(subject.filter { $0.isMultiple(of: 2) })
    for value in 1...5 { subject.sendNext(value) }
    subject.sendCompleted()
    #expect(recorder.events == [.next(2), .next(4), .completed])
  }

  @Test("disposing a map or filter chain disposes the upstream subscription")
  func disposal() {
    let subject = Subject<Int, Never>()
    let recorder = EventRecorder(subject.map { $0 + 1 }.filter { $0 > 0 })
    #expect(subject.subscriberCount == 1)
    recorder.dispose()
    #expect(subject.subscriberCount == 0)
  }
}
