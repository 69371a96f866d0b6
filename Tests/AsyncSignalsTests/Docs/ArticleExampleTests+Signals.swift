import AsyncSignals
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

// MARK: SignalsSubscribersAndDisposal.md

extension ArticleExampleTests {
  @Test("SignalsSubscribersAndDisposal: an array of events, their values and the last one terminating")
  func signalsEvents() {
    let events: [Event<Int, Never>] = [.next(1), .next(2), .completed]
    print(events.compactMap(\.value), events.last!.isTerminating)
    // [1, 2] true
    #expect(console.lines == ["[1, 2] true"])
  }

  @Test("SignalsSubscribersAndDisposal: materialize() sends every event as a value")
  func signalsMaterialize() {
    Signal<Int, Never>.return(7).materialize().subscribeNext { print($0) }
    // next(7), completed
    #expect(console.lines == ["next(7)", "completed"])
  }

  @Test("SignalsSubscribersAndDisposal: a subscriber of your own gets the disposable first, then the events")
  func signalsCustomSubscriber() {
    final class Printer: Subscriber {
      func didSubscribe(with disposable: any Disposable) { print("subscribed") }
      func sendNext(_ value: Int) { print("next", value) }
      func sendError(_ error: Never) {}
      func sendCompleted() { print("completed") }
    }
    Signal<Int, Never>.return(1).subscribe(Printer())
    // subscribed, next 1, completed
    #expect(console.lines == ["subscribed", "next 1", "completed"])
  }

  @Test("SignalsSubscribersAndDisposal: the terminal callback runs first, then the cleanup")
  func signalsTerminalOrder() {
    let job = Signal<String, Never>.create { subscriber in
      subscriber.sendNext("working")
      subscriber.sendCompleted()
      return ActionDisposable { print("cleanup") }
    }
    job.subscribeNext({ print($0) }, completed: { print("completed") })
    // working, completed, cleanup
    #expect(console.lines == ["working", "completed", "cleanup"])
  }

  @Test("SignalsSubscribersAndDisposal: a callback disposes its own subscription through a serial disposable")
  func signalsDisposeFromCallback() {
    let ticks = Subject<Int, Never>()
    let subscription = SerialDisposable()
    subscription.inner = ticks.subscribeNext { tick in
      print("tick", tick)
      if tick == 2 { subscription.dispose() }  // ends the subscription from its own callback
    }
    for tick in 1...4 { ticks.sendNext(tick) }
    // tick 1, tick 2
    #expect(console.lines == ["tick 1", "tick 2"])
    #expect(ticks.subscriberCount == 0)
  }

  @Test("SignalsSubscribersAndDisposal: disposing a compound ends both subscriptions")
  func signalsCompound() {
    let temperature = Subject<Double, Never>()
    let humidity = Subject<Double, Never>()
    let subscriptions = CompoundDisposable()
    subscriptions.add(temperature.subscribeNext { print("temperature", $0) })
    subscriptions.add(humidity.subscribeNext { print("humidity", $0) })
    subscriptions.dispose()
    print(temperature.subscriberCount, humidity.subscriberCount)
    // 0 0
    #expect(console.lines == ["0 0"])
  }

  @Test("SignalsSubscribersAndDisposal: swapping a serial disposable's inner disposes nothing (RAC's semantics)")
  func signalsSerialSwap() {
    let search = SerialDisposable()
    search.inner = ActionDisposable { print("cancelled the search for swi") }
    let previous = search.swap(ActionDisposable { print("cancelled the search for swift") })
    print("replaced")  // replacing disposed nothing
    previous?.dispose()  // cancelled the search for swi
    search.dispose()  // cancelled the search for swift
    #expect(console.lines == ["replaced", "cancelled the search for swi", "cancelled the search for swift"])
  }

  @Test("SignalsSubscribersAndDisposal: a scoped disposable ends the subscription when its owner goes away")
  func signalsScoped() {
    final class Screen {
      private let clock: ScopedDisposable
      init(ticks: Signal<Int, Never>) {
        clock = ticks.subscribeNext { print("tick", $0) }.asScoped()
      }
    }
    let ticks = Subject<Int, Never>()
    var screen: Screen? = Screen(ticks: ticks)
    ticks.sendNext(1)  // tick 1
    screen = nil  // the screen goes away, and so does its subscription
    ticks.sendNext(2)  // prints nothing
    #expect(screen == nil)
    #expect(console.lines == ["tick 1"])
    #expect(ticks.subscriberCount == 0)
  }
}
