import AsyncSignals
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

// MARK: HotAndColdSignals.md

extension ArticleExampleTests {
  @Test("HotAndColdSignals: a subject replays nothing and remembers its completion for late subscribers")
  func hotSubject() {
    let messages = Subject<String, Never>()
    messages.sendNext("lost")  // no subscriber yet: nobody receives it
    messages.subscribeNext({ print("a:", $0) }, completed: { print("a: completed") })
    messages.sendNext("hello")
    messages.sendCompleted()
    messages.subscribeNext({ print("b:", $0) }, completed: { print("b: completed") })
    // a: hello, a: completed, b: completed
    #expect(console.lines == ["a: hello", "a: completed", "b: completed"])
  }

  @Test("HotAndColdSignals: a replay subject of capacity 2 replays the latest two; a behaviour subject its value")
  func hotReplayAndBehavior() {
    let history = ReplaySubject<Int, Never>(capacity: 2)
    for value in 1...3 { history.sendNext(value) }
    history.subscribeNext { print("replayed", $0) }
    // replayed 2, replayed 3

    let volume = BehaviorSubject<Int, Never>(value: 5)
    volume.subscribeNext { print("volume", $0) }
    volume.sendNext(7)
    print(volume.value)
    // volume 5, volume 7, 7
    #expect(console.lines == ["replayed 2", "replayed 3", "volume 5", "volume 7", "7"])
  }

  @Test("HotAndColdSignals: subscribe(_:) forwards a signal into a subject, completion included")
  func hotForwardIntoSubject() {
    let relay = Subject<Int, Never>()
    relay.subscribeNext({ print("relayed", $0) }, completed: { print("relay completed") })
    Signal<Int, Never>.return(1).subscribe(relay)
    // relayed 1, relay completed
    #expect(console.lines == ["relayed 1", "relay completed"])
  }

  @Test("HotAndColdSignals: multicast into a replay subject sends the request once, to both subscribers")
  func hotRequestOnce() {
    let request = Signal<String, URLError>.create { subscriber in
      print("sending request")
      subscriber.sendNext("response")
      subscriber.sendCompleted()
      return nil
    }
    let connection = request.multicast(ReplaySubject())
    connection.connect()
    connection.signal.subscribeNext({ print("first:", $0) }, error: { print("failed:", $0) })
    connection.signal.subscribeNext({ print("second:", $0) }, error: { print("failed:", $0) })
    // sending request, first: response, second: response
    #expect(console.lines == ["sending request", "first: response", "second: response"])
  }

  @Test("HotAndColdSignals: replayLazily starts the download at the first subscription, once")
  func hotReplayLazily() {
    let avatar = Signal<String, Never>.create { subscriber in
      print("downloading")
      subscriber.sendNext("avatar.png")
      subscriber.sendCompleted()
      return nil
    }.replayLazily()
    print("nothing yet")
    avatar.subscribeNext { print("first:", $0) }
    avatar.subscribeNext { print("second:", $0) }
    // nothing yet, downloading, first: avatar.png, second: avatar.png
    #expect(console.lines == ["nothing yet", "downloading", "first: avatar.png", "second: avatar.png"])
  }

  @Test("HotAndColdSignals: autoconnect shares one subscription and drops it when the last subscriber leaves")
  func hotAutoconnect() {
    let clicks = Subject<Int, Never>()
    let counted = clicks.doNext { _ in print("counted once") }.publish().autoconnect()
    let a = counted.subscribeNext { print("a", $0) }  // connects
    let b = counted.subscribeNext { print("b", $0) }
    clicks.sendNext(1)
    a.dispose()
    b.dispose()  // the last subscriber left: disconnects
    print(clicks.subscriberCount)
    // counted once, a 1, b 1, 0
    #expect(console.lines == ["counted once", "a 1", "b 1", "0"])
  }

  @Test("HotAndColdSignals: share() connects on the first subscriber, disconnects after the last, and connects again")
  func hotShare() {
    let source = Signal<Int, Never>.create { subscriber in
      print("connected")
      subscriber.sendNext(1)
      return ActionDisposable { print("disconnected") }
    }
    let shared = source.share()
    let a = shared.subscribeNext { print("a", $0) }  // connects
    let b = shared.subscribeNext { print("b", $0) }  // shares: 1 was sent before it came
    a.dispose()
    b.dispose()  // the last subscriber left: disconnects
    shared.subscribeNext { print("c", $0) }  // connects again: a new run
    // connected, a 1, disconnected, connected, c 1
    #expect(console.lines == ["connected", "a 1", "disconnected", "connected", "c 1"])
  }

  @Test("HotAndColdSignals: share(replay:) replays the live connection's latest values; a new connection has none")
  func hotShareReplay() {
    let prices = Subject<Int, Never>()
    let latest = prices.share(replay: 1)
    let first = latest.subscribeNext { print("first", $0) }
    prices.sendNext(100)
    let second = latest.subscribeNext { print("second", $0) }  // replayed: 100
    first.dispose()
    second.dispose()  // disconnects: the replay goes with the connection
    latest.subscribeNext { print("third", $0) }  // nothing to replay
    prices.sendNext(101)
    // first 100, second 100, third 101
    #expect(console.lines == ["first 100", "second 100", "third 101"])
  }
}
