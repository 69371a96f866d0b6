import Dispatch
import Foundation
import Testing

@testable import AsyncSignals

/// A thread-safe model whose property a binding sets.
private final class Model: @unchecked Sendable {
  // guarded by: `storage`, a `Locked` box.
  private let storage = Locked("")
  var name: String {
    get { storage.value }
    set { storage.value = newValue }
  }
}

/// A model that owns a lifetime, so that its bindings end the moment it goes away.
private final class OwningModel: LifetimeProviding, @unchecked Sendable {
  // guarded by: `storage`, a `Locked` box; `lifetime` is a `let`.
  let lifetime = Lifetime()
  private let storage = Locked(0)
  var count: Int {
    get { storage.value }
    set { storage.value = newValue }
  }
}

/// A main-actor "view" that logs every value set on it.
@MainActor
private final class Label: LifetimeProviding {
  nonisolated let lifetime = Lifetime()
  var log: [String] = []
  var text = "" { didSet { log.append(text) } }
}

@MainActor
@Suite("Bindings: bind(to:keyPath:)")
struct KeyPathBindingTests {
  @Test("sets the property to each value and ends when the signal completes")
  func setsEachValue() {
    let subject = Subject<String, Never>()
    let model = Model()
    subject.bind(to: model, keyPath: \.name)
    subject.sendNext("a")
    #expect(model.name == "a")
    subject.sendNext("b")
    #expect(model.name == "b")
    subject.sendCompleted()
    #expect(subject.subscriberCount == 0)
  }

  @Test("nilValue is set for nil")
  func nilValue() {
    let subject = Subject<String?, Never>()
    let model = Model()
    subject.bind(to: model, keyPath: \.name, nilValue: "none")
    subject.sendNext("a")
    subject.sendNext(nil)
    #expect(model.name == "none")
  }

  @Test("disposing the binding stops it")
  func disposal() {
    let subject = Subject<String, Never>()
    let model = Model()
    let binding = subject.bind(to: model, keyPath: \.name)
    binding.dispose()
    subject.sendNext("a")
    #expect(model.name == "")
    #expect(subject.subscriberCount == 0)
  }

  @Test("the binding is released when a LifetimeProviding target goes away, at once")
  func releasedWithLifetime() {
    let subject = Subject<Int, Never>()
    var model: OwningModel? = OwningModel()
    subject.bind(to: model!, keyPath: \.count)
    subject.sendNext(1)
    #expect(model?.count == 1)
    #expect(subject.subscriberCount == 1)
    model = nil
    #expect(subject.subscriberCount == 0)
  }

  @Test("the binding is released at the next value when any other target goes away")
  func releasedAtNextValue() {
    let subject = Subject<String, Never>()
    var model: Model? = Model()
    subject.bind(to: model!, keyPath: \.name)
    model = nil
    #expect(subject.subscriberCount == 1)
    subject.sendNext("a")
    #expect(subject.subscriberCount == 0)
  }

  @Test("a binding that ends on its own is forgotten by the target's lifetime")
  func forgottenByLifetime() {
    let tracker = LifetimeTracker()
    let model = OwningModel()
    do {
      let tracked = tracker.make()
      let subject = Subject<Int, Never>()
      subject.map { value -> Int in withExtendedLifetime(tracked) { value } }.bind(to: model, keyPath: \.count)
      subject.sendNext(3)
      subject.sendCompleted()
    }
    #expect(model.count == 3)
    #expect(tracker.liveCount == 0)
  }
}

@MainActor
@Suite("Bindings: bind(onMainActorTo:keyPath:)")
struct MainActorBindingTests {
  /// Lets the main queue run what was queued on it.
  private func drainMainQueue() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async { continuation.resume() }
    }
  }

  @Test("a value sent on the main queue is set at once; one sent elsewhere is queued, and later ones wait behind it")
  func ordering() async {
    let subject = Subject<String, Never>()
    let label = Label()
    subject.bind(onMainActorTo: label, keyPath: \.text)
    subject.sendNext("a")
    #expect(label.text == "a")
    let sent = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      subject.sendNext("b")
      sent.signal()
    }
    sent.wait()
    subject.sendNext("c")  // on the main queue, but "b" is still queued: "c" waits behind it
    #expect(label.log == ["a"])
    await drainMainQueue()
    #expect(label.log == ["a", "b", "c"])
  }

  @Test("nilValue is set for nil, on the main actor")
  func nilValue() {
    let subject = Subject<String?, Never>()
    let label = Label()
    subject.bind(onMainActorTo: label, keyPath: \.text, nilValue: "—")
    subject.sendNext(nil)
    #expect(label.text == "—")
  }

  @Test("the binding is released when the label goes away, and when the signal completes")
  func release() {
    let subject = Subject<String, Never>()
    var label: Label? = Label()
    subject.bind(onMainActorTo: label!, keyPath: \.text)
    #expect(subject.subscriberCount == 1)
    label = nil
    #expect(subject.subscriberCount == 0)
    let other = Label()
    subject.bind(onMainActorTo: other, keyPath: \.text)
    subject.sendCompleted()
    #expect(subject.subscriberCount == 0)
  }
}

@MainActor
@Suite("Bindings: ObservableValue, Lifetime, NotificationCenter")
struct ObservableValueTests {
  @Test("the signal sends the current value first, then every change")
  func currentValueFirst() {
    let name = ObservableValue("ada")
    let early = EventRecorder(name.signal)
    name.value = "grace"
    let late = EventRecorder(name.signal)
    name.value = "barbara"
    #expect(early.values == ["ada", "grace", "barbara"])
    #expect(late.values == ["grace", "barbara"])
    #expect(name.value == "barbara")
  }

  @Test("the signal completes when the observable value goes away")
  func completesOnDeinit() {
    var value: ObservableValue<Int>? = ObservableValue(1)
    let recorder = EventRecorder(value!.signal)
    value = nil
    #expect(recorder.events == [.next(1), .completed])
  }

  @Test("a signal bound into an observable value (RAC(self, name) = …) ends when it goes away")
  func bindInto() {
    let subject = Subject<String, Never>()
    var name: ObservableValue<String>? = ObservableValue("")
    let recorder = EventRecorder(name!.signal)
    subject.bind(to: name!, keyPath: \.value)
    subject.sendNext("x")
    #expect(recorder.values == ["", "x"])
    name = nil
    #expect(subject.subscriberCount == 0)
    #expect(recorder.isCompleted)
  }

  @Test("a lifetime disposes what was added to it and completes `ended` when it goes away")
  func lifetime() {
    let disposed = Locked(false)
    var lifetime: Lifetime? = Lifetime()
    let ended = EventRecorder(lifetime!.ended)
    ActionDisposable { disposed.value = true }.dispose(with: lifetime!)
    #expect(!disposed.value)
    lifetime = nil
    #expect(disposed.value)
    #expect(ended.events == [.completed])
  }

  @Test("NotificationCenter: each posted notification is sent; disposing removes the observer")
  func notifications() {
    let center = NotificationCenter()
    let name = Notification.Name("AsyncSignalsTests.ping")
    let values = Locked<[String]>([])
    let subscription = center.signal(forName: name) { ($0.userInfo?["word"] as? String) ?? "?" }
      .subscribeNext { values.append($0) }
    center.post(name: name, object: nil, userInfo: ["word": "hello"])
    center.post(name: Notification.Name("other"), object: nil)
    subscription.dispose()
    center.post(name: name, object: nil, userInfo: ["word": "late"])
    #expect(values.value == ["hello"])
  }

  @Test("NotificationCenter: only the given object's notifications; completes if the object is already gone")
  func notificationObject() {
    let center = NotificationCenter()
    let name = Notification.Name("AsyncSignalsTests.object")
    var sender: Lifetime? = Lifetime()  // any Sendable object will do
    let other = Lifetime()
    let received = EventRecorder(center.signal(forName: name, object: sender!))
    center.post(name: name, object: other)
    center.post(name: name, object: sender!)
    #expect(received.values == [name])
    let signal = center.signal(forName: name, object: sender!)
    sender = nil
    #expect(EventRecorder(signal).events == [.completed])
  }
}
