import Dispatch
import Testing

@testable import AsyncSignals

@Suite("CompoundDisposable")
struct CompoundDisposableTests {
  @Test("disposes every child, inline and beyond, exactly once")
  func disposesChildren() {
    let compound = CompoundDisposable()
    let children = (0..<5).map { _ in ActionDisposable() }
    for child in children { compound.add(child) }
    compound.dispose()
    compound.dispose()
    #expect(children.allSatisfy { $0.isDisposed })
    #expect(compound.isDisposed)
  }

  @Test("adding to a disposed compound disposes the child at once")
  func addAfterDispose() {
    let compound = CompoundDisposable()
    compound.dispose()
    let child = ActionDisposable()
    compound.add(child)
    #expect(child.isDisposed)
  }

  @Test("a removed child is not disposed, wherever it was stored")
  func remove() {
    let compound = CompoundDisposable()
    let children = (0..<4).map { _ in ActionDisposable() }
    for child in children { compound.add(child) }
    compound.remove(children[0])
    compound.remove(children[3])
    compound.remove(nil)
    compound.dispose()
    #expect(children.map(\.isDisposed) == [false, true, true, false])
  }

  @Test("nil and already-disposed children are ignored")
  func ignoresNilAndDisposed() {
    let compound = CompoundDisposable()
    compound.add(nil)
    let disposed = ActionDisposable()
    disposed.dispose()
    compound.add(disposed)
    compound.dispose()
    #expect(compound.isDisposed)
  }

  @Test("the initialisers take children and an own action")
  func initialisers() {
    let runs = Locked(0)
    let children = [ActionDisposable(), ActionDisposable()]
    let compound = CompoundDisposable(children)
    compound.dispose()
    #expect(children.allSatisfy { $0.isDisposed })
    let withAction = CompoundDisposable(action: { runs.increment() })
    withAction.dispose()
    withAction.dispose()
    #expect(runs.value == 1)
  }

  @Test("a child that touches the same compound while being disposed cannot deadlock (guarantee 3)")
  func reentrantDisposal() {
    let compound = CompoundDisposable()
    let late = ActionDisposable()
    let other = ActionDisposable()
    compound.add(other)
    compound.add(ActionDisposable { [compound] in
      compound.remove(other)
      compound.add(late)
      compound.dispose()
    })
    compound.dispose()
    #expect(late.isDisposed)
  }

  @Test("concurrent add, remove and dispose dispose every kept child exactly once (guarantee 3)")
  func concurrentUse() {
    for _ in 0..<50 {
      let compound = CompoundDisposable()
      let runs = Locked([Int](repeating: 0, count: 800))
      let children = (0..<800).map { index in ActionDisposable { runs.withLock { $0[index] += 1 } } }
      DispatchQueue.concurrentPerform(iterations: 8) { thread in
        for index in stride(from: thread, to: 800, by: 8) {
          compound.add(children[index])
          if index % 3 == 0 { compound.remove(children[index]) }
          if index == 400 { compound.dispose() }
        }
      }
      compound.dispose()
      for (index, count) in runs.value.enumerated() {
        if index % 3 == 0 {
          #expect(count <= 1)
        } else {
          #expect(count == 1)
        }
      }
    }
  }
}
