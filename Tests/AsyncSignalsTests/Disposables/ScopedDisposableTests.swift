import Testing

@testable import AsyncSignals

@Suite("ScopedDisposable")
struct ScopedDisposableTests {
  @Test("disposes the wrapped disposable when deinitialised")
  func disposesOnDeinit() {
    let wrapped = ActionDisposable()
    do {
      let scoped = ScopedDisposable(wrapped)
      #expect(!scoped.isDisposed)
    }
    #expect(wrapped.isDisposed)
  }

  @Test("disposing it disposes the wrapped disposable")
  func disposeForwards() {
    let wrapped = ActionDisposable()
    let scoped = ScopedDisposable(wrapped)
    scoped.dispose()
    #expect(wrapped.isDisposed)
    #expect(scoped.isDisposed)
  }
}
