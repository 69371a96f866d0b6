import Testing

@testable import AsyncSignals

@MainActor
@Suite("groupBy")
struct GroupByTests {
  @Test("sends a GroupedSignal per new key and routes each value to its group")
  func groups() {
    let source = Subject<Int, TestError>()
    let keys = Locked<[Bool]>([])
    let log = Locked<[String]>([])
    source.groupBy { $0 % 2 == 0 }.subscribeNext(
      { group in
        keys.append(group.key)
        group.subscribeNext({ log.append("\(group.key ? "even" : "odd") \($0)") }, error: { _ in })
      }, error: { _ in })
    for value in 1...4 { source.sendNext(value) }
    #expect(keys.value == [false, true])
    #expect(log.value == ["odd 1", "even 2", "odd 3", "even 4"])
  }

  @Test("groupBy(_:transform:) sends the transformed values to the groups")
  func transform() {
    let source = Subject<String, Never>()
    let log = Locked<[String]>([])
    source.groupBy({ $0.count }, transform: { $0.uppercased() }).subscribeNext { group in
      group.subscribeNext { log.append("\(group.key):\($0)") }
    }
    source.sendNext("ab")
    source.sendNext("c")
    source.sendNext("de")
    #expect(log.value == ["2:AB", "1:C", "2:DE"])
  }

  @Test("completion goes to the result first, then to every group in creation order")
  func completion() {
    let source = Subject<Int, Never>()
    let log = Locked<[String]>([])
    source.groupBy { $0 }.subscribeNext(
      { group in group.subscribeCompleted { log.append("group \(group.key) completed") } },
      completed: { log.append("outer completed") })
    source.sendNext(2)
    source.sendNext(1)
    source.sendCompleted()
    #expect(log.value == ["outer completed", "group 2 completed", "group 1 completed"])
  }

  @Test("an error goes to the result first, then to every group")
  func error() {
    let source = Subject<Int, TestError>()
    let log = Locked<[String]>([])
    source.groupBy { $0 }.subscribeNext(
      { group in group.subscribeError { log.append("group \(group.key) \($0)") } },
      error: { log.append("outer \($0)") })
    source.sendNext(1)
    source.sendError(TestError(code: 3))
    #expect(log.value == ["outer TestError(3)", "group 1 TestError(3)"])
  }

  @Test("disposing the result disposes the source subscription")
  func disposal() {
    let source = Subject<Int, Never>()
    let groups = EventRecorder(source.groupBy { $0 })
    #expect(source.subscriberCount == 1)
    groups.dispose()
    #expect(source.subscriberCount == 0)
  }

  @Test("a group sent to a subscriber that has finished (take-like .stop) still receives that first value")
  func stopAfterFirstGroup() {
    let source = Subject<Int, Never>()
    let received = Locked<[Int]>([])
    let stopping = Signal<GroupedSignal<Int, Int, Never>, Never>.create { subscriber in
      source.groupBy { $0 }.subscribe(subscriber)
    }
    _ = stopping.attach { event in
      if case .next(let group) = event { group.subscribeNext { received.append($0) } }
      return .stop
    }
    source.sendNext(1)
    #expect(received.value == [1])
    #expect(source.subscriberCount == 0)
  }
}
