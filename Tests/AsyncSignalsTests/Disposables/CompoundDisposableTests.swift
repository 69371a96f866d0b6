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

  @Test("a child in two compounds: each disposes it, its action runs once; removing it from one leaves the other")
  func childInTwoCompounds() {
    let runs = Locked(0)
    let child = ActionDisposable { runs.increment() }
    let left = CompoundDisposable()
    let right = CompoundDisposable()
    left.add(child)
    right.add(child)
    left.remove(child)
    left.dispose()
    #expect(!child.isDisposed)
    right.dispose()
    #expect(child.isDisposed && runs.value == 1)

    let shared = ActionDisposable { runs.increment() }
    let first = CompoundDisposable([shared])
    let second = CompoundDisposable([shared])
    first.dispose()
    second.dispose()
    #expect(runs.value == 2)
  }

  @Test("removing after disposal does nothing; a child removed before disposal is never disposed")
  func removeAfterDispose() {
    let compound = CompoundDisposable()
    let kept = ActionDisposable()
    let removed = ActionDisposable()
    compound.add(kept)
    compound.add(removed)
    compound.remove(removed)
    compound.dispose()
    compound.remove(kept)
    compound.remove(removed)
    #expect(kept.isDisposed && !removed.isDisposed)
  }

  @Test("a child re-added after removal is kept again, and added twice it is removed in one call")
  func reAdding() {
    let runs = Locked(0)
    let child = ActionDisposable { runs.increment() }
    let compound = CompoundDisposable()
    compound.add(child)
    compound.remove(child)
    compound.add(child)
    compound.dispose()
    #expect(runs.value == 1)

    let twice = ActionDisposable()
    let other = CompoundDisposable()
    other.add(twice)
    other.add(twice)
    other.remove(twice)  // every occurrence
    other.dispose()
    #expect(!twice.isDisposed)
  }

  @Test("past the two inline slots: children beyond them are disposed, removed and re-added like the first two")
  func beyondTheInlineSlots() {
    let compound = CompoundDisposable()
    let children = (0..<10).map { _ in ActionDisposable() }
    for child in children { compound.add(child) }
    compound.remove(children[5])
    compound.remove(children[9])
    compound.add(children[9])
    compound.dispose()
    #expect(children.enumerated().allSatisfy { index, child in child.isDisposed == (index != 5) })
  }

  @Test("the generic and the any Disposable overloads of add and remove do the same")
  func bothOverloads() {
    let compound = CompoundDisposable()
    let concrete = ActionDisposable()
    let existential: any Disposable = ActionDisposable()
    let optional: ActionDisposable? = ActionDisposable()
    compound.add(concrete)  // generic
    compound.add(existential)  // generic, the existential opened
    compound.add(optional)  // any Disposable
    compound.add(nil)  // any Disposable
    compound.remove(concrete as (any Disposable)?)
    compound.remove(optional)
    compound.dispose()
    #expect(!concrete.isDisposed && existential.isDisposed && optional?.isDisposed == false)

    let disposed = CompoundDisposable()
    disposed.dispose()
    let late = ActionDisposable()
    let lateExistential: (any Disposable)? = ActionDisposable()
    disposed.add(late)
    disposed.add(lateExistential)
    #expect(late.isDisposed && lateExistential?.isDisposed == true)
  }

  @Test("disposing releases the children and their actions (guarantee 8)")
  func releasesChildren() {
    let tracker = LifetimeTracker()
    let compound = CompoundDisposable()
    for _ in 0..<5 {
      let tracked = tracker.make()
      compound.add(ActionDisposable { _ = tracked })
    }
    #expect(tracker.liveCount == 5)
    compound.dispose()
    #expect(tracker.liveCount == 0)
  }
}
