import Dispatch
import Testing

@testable import AsyncSignals

@Suite("SerialDisposable")
struct SerialDisposableTests {
  @Test("setting a new inner does not dispose the previous one (RAC semantics)")
  func settingKeepsPrevious() {
    let serial = SerialDisposable()
    let first = ActionDisposable()
    let second = ActionDisposable()
    serial.inner = first
    serial.inner = second
    #expect(!first.isDisposed)
    #expect(serial.inner === second)
    serial.dispose()
    #expect(second.isDisposed)
    #expect(!first.isDisposed)
    #expect(serial.inner == nil)
  }

  @Test("swap returns the previous inner without disposing it")
  func swapReturnsPrevious() {
    let first = ActionDisposable()
    let serial = SerialDisposable(first)
    let previous = serial.swap(ActionDisposable())
    #expect(previous === first)
    #expect(!first.isDisposed)
  }

  @Test("after disposal a new inner is disposed at once and swap returns nil")
  func afterDisposal() {
    let serial = SerialDisposable()
    serial.dispose()
    let late = ActionDisposable()
    #expect(serial.swap(late) == nil)
    #expect(late.isDisposed)
    let later = ActionDisposable()
    serial.inner = later
    #expect(later.isDisposed)
    #expect(serial.inner == nil)
  }

  @Test("init(action:) holds an action disposable; disposing that inner alone leaves the serial live")
  func actionInit() {
    let runs = Locked(0)
    let serial = SerialDisposable(action: { runs.increment() })
    serial.inner?.dispose()
    #expect(runs.value == 1)
    #expect(!serial.isDisposed)
    serial.dispose()
    #expect(runs.value == 1)
  }

  @Test("concurrent swap, set and dispose never dispose an inner twice and leak none (guarantee 3)")
  func concurrentUse() {
    for _ in 0..<100 {
      let serial = SerialDisposable()
      let runs = Locked([Int](repeating: 0, count: 160))
      let kept = Locked([Int]())
      let inners = (0..<160).map { index in ActionDisposable { runs.withLock { $0[index] += 1 } } }
      DispatchQueue.concurrentPerform(iterations: 8) { thread in
        for index in stride(from: thread, to: 160, by: 8) {
          if index == 80 { serial.dispose() }
          if let previous = serial.swap(inners[index]) as? ActionDisposable,
            let previousIndex = inners.firstIndex(where: { $0 === previous })
          {
            kept.append(previousIndex)
          }
        }
      }
      let counts = runs.value
      #expect(counts.allSatisfy { $0 <= 1 })
      // Every inner was either handed back by swap or disposed by the serial disposable.
      let handedBack = Set(kept.value)
      for index in 0..<160 where !handedBack.contains(index) {
        #expect(counts[index] == 1)
      }
    }
  }
}
