import Testing

@testable import AsyncSignals

@MainActor
@Suite("Booleans: not, and, or")
struct BooleansTests {
  @Test("-not inverts each Boolean and passes terminal events through")
  func not() {
    let source = SyncSource<Bool, TestError>([true, false], then: .error(TestError(code: 1)))
    #expect(EventRecorder(source.signal.not()).events == [.next(false), .next(true), .error(TestError(code: 1))])
    #expect(EventRecorder(SyncSource<Bool, TestError>([true]).signal.not()).events == [.next(false), .completed])
  }

  @Test("-and sends whether every Boolean of each array is true; an empty array gives true")
  func and() {
    let source = SyncSource<[Bool], TestError>([[true, true], [true, false], [false], []])
    #expect(
      EventRecorder(source.signal.and()).events == [.next(true), .next(false), .next(false), .next(true), .completed])
  }

  @Test("-or sends whether any Boolean of each array is true; an empty array gives false")
  func or() {
    let source = SyncSource<[Bool], TestError>([[false, true], [false, false], [true], []])
    #expect(
      EventRecorder(source.signal.or()).events == [.next(true), .next(false), .next(true), .next(false), .completed])
  }

  @Test("and and or pass a failure through")
  func failures() {
    let failing = SyncSource<[Bool], TestError>([], then: .error(TestError(code: 2)))
    #expect(EventRecorder(failing.signal.and()).events == [.error(TestError(code: 2))])
    #expect(EventRecorder(failing.signal.or()).events == [.error(TestError(code: 2))])
  }

  @Test("disposing not, and and or disposes the source")
  func disposal() {
    let flags = Subject<Bool, Never>()
    let arrays = Subject<[Bool], Never>()
    let recorders = [EventRecorder(flags.not()), EventRecorder(arrays.and()), EventRecorder(arrays.or())]
    #expect(flags.subscriberCount == 1 && arrays.subscriberCount == 2)
    for recorder in recorders { recorder.dispose() }
    #expect(flags.subscriberCount == 0 && arrays.subscriberCount == 0)
  }
}
