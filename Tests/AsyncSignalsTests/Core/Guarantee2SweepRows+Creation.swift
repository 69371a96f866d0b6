import Foundation

@testable import AsyncSignals

// The guarantee 2 sweep's rows for the factories: creation, subjects, multicasting, sequences, bindings, commands.
// Each row's first string is the name in the symbol graph (see Support/Guarantee2Sweep.swift).

/// The reason of a row whose signal sends one value and completes.
let sendsOneValue = "sends one value, then completes: checked that the completion does not follow"

extension SweepRow {
  static let creation: [SweepRow] = [
    .row("static create(_:)") { fixture in
      Signal<Int, Never>.create { subscriber in
        fixture.onFire {
          for value in 1...5 { subscriber.sendNext(value) }
          subscriber.sendCompleted()
        }
        return nil
      }
    },
    .row("static return(_:)", values: 1, because: sendsOneValue, subscribing: .sendsEverything) { _ in
      Signal<Int, Never>.return(1)
    },
    .silentRow("static empty", because: "completes at once", subscribing: .sendsEverything) { _ in
      Signal<Int, Never>.empty
    },
    .silentRow("static error(_:)", because: "fails at once", subscribing: .sendsEverything) { _ in
      Signal<Int, TestError>.error(TestError())
    },
    .silentRow("static never", because: "sends nothing, ever", ends: false) { _ in Signal<Int, Never>.never },
    .row("static defer(_:)") { fixture in
      let input = fixture.ints()
      return Signal.defer { input }
    },
    .row("static from(_:)", subscribing: .sendsEverything) { _ in Signal<Int, Never>.from([1, 2, 3, 4, 5]) },
    .row("named(_:)") { fixture in fixture.ints().named("numbers") },

    // Subjects.
    .row("Subject.init()") { fixture in
      let subject = Subject<Int, Never>()
      fixture.onFireSendNumbers(to: subject)
      return subject
    },
    .row("ReplaySubject.init(capacity:file:line:)", subscribing: .sendsSomeValues) { fixture in
      // Two values to replay while subscribing, then the rest live.
      let subject = ReplaySubject<Int, Never>(capacity: 3)
      subject.sendNext(-2)
      subject.sendNext(-1)
      fixture.onFireSendNumbers(to: subject)
      return subject
    },
    .row("BehaviorSubject.init(value:)", subscribing: .sendsSomeValues) { fixture in
      let subject = BehaviorSubject<Int, Never>(value: 0)
      fixture.onFireSendNumbers(to: subject)
      return subject
    },
    .row("GroupedSignal.init(key:)") { fixture in
      let group = GroupedSignal<String, Int, Never>(key: "numbers")
      fixture.onFireSendNumbers(to: group)
      return group
    },

    // Multicasting.
    .row("MulticastConnection.signal") { fixture in
      // Connected when fired, before the input fires: after subscribing, also where the input sends at once.
      let connection = Locked<MulticastConnection<Int, Never>?>(nil)
      fixture.onFire { _ = connection.value?.connect() }
      connection.value = fixture.ints().publish()
      return connection.value!.signal
    },
    .row("MulticastConnection.autoconnect()") { fixture in fixture.ints().publish().autoconnect() },
    .row("replay()") { fixture in fixture.ints().replay() },
    .row("replayLast()") { fixture in
      // Connected at once, so an input that sends while subscribed would leave one value to replay: a manual one.
      let input = fixture.manualInput(Int.self, Never.self)
      fixture.onFire { input.send([1, 2, 3, 4, 5], then: .completed) }
      return input.signal.replayLast()
    },
    .row("replayLazily()") { fixture in fixture.ints().replayLazily() },
    .row("share(replay:file:line:)") { fixture in fixture.ints().share(replay: 1) },
    .row("static startLazily(on:_:)") { fixture in
      Signal<Int, Never>.startLazily(on: fixture.scheduler) { subscriber in
        for value in 1...5 { subscriber.sendNext(value) }
        subscriber.sendCompleted()
      }
    },
    .row("static startEagerly(on:_:)") { fixture in
      Signal<Int, Never>.startEagerly(on: fixture.scheduler) { subscriber in
        for value in 1...5 { subscriber.sendNext(value) }
        subscriber.sendCompleted()
      }
    },

    // Sequences.
    .row("MemoizedSequence.signal(on:)") { fixture in MemoizedSequence([1, 2, 3, 4, 5]).signal(on: fixture.scheduler) },
    .row("MemoizedSequence.signal()", subscribing: .sendsEverything, settle: .ownQueue) { _ in
      // Its walk starts on a queue of its own as soon as it is subscribed, racing the return of `subscribeNext`.
      MemoizedSequence([1, 2, 3, 4, 5]).signal()
    },

    // Bindings.
    .silentRow("Lifetime.ended", because: "a lifetime sends no values, only its end") { fixture in
      let lifetime = Locked<Lifetime?>(Lifetime())
      let ended = lifetime.value!.ended
      fixture.onFire { lifetime.value = nil }
      return ended
    },
    .row("ObservableValue.signal", subscribing: .sendsSomeValues) { fixture in
      let observable = ObservableValue(0)
      fixture.onFire { for value in 1...5 { observable.value = value } }
      return observable.signal
    },
    .row("NotificationCenter.signal(forName:object:_:)") { fixture in
      let center = NotificationCenter()
      let name = Notification.Name("Guarantee2Sweep")
      fixture.onFire { for _ in 1...5 { center.post(name: name, object: nil) } }
      return center.signal(forName: name) { $0.name.rawValue.count }
    },
    .row("NotificationCenter.signal(forName:object:)") { fixture in
      let center = NotificationCenter()
      let name = Notification.Name("Guarantee2Sweep")
      fixture.onFire { for _ in 1...5 { center.post(name: name, object: nil) } }
      return center.signal(forName: name)
    },

    // Commands: the work runs on the fixture's scheduler.
    .failingRow("Command.execute(_:)") { fixture in
      let work = fixture.failingInts()
      return Command<Int, Int, TestError>(scheduler: fixture.scheduler) { _ in work }.execute(1)
    } drive: { fixture in
      fixture.scheduler.advance()  // subscribes the work
      fixture.fireInputs()
    },
    .failingRow("Command.execute()") { fixture in
      let work = fixture.failingInts()
      return Command<Void, Int, TestError>(scheduler: fixture.scheduler) { work }.execute()
    } drive: { fixture in
      fixture.scheduler.advance()
      fixture.fireInputs()
    },
    .row("Command.executionSignals") { fixture in twoExecutions(fixture, failing: false).executionSignals },
    .row("Command.executing", subscribing: .sendsSomeValues) { fixture in
      twoExecutions(fixture, failing: false).executing
    },
    .row("Command.enabled", subscribing: .sendsSomeValues) { fixture in
      twoExecutions(fixture, failing: false).enabled
    },
    .row("Command.errors") { fixture in twoExecutions(fixture, failing: true).errors },
  ]
}

/// A command on the fixture's scheduler that, when the fixture fires, executes twice, one execution after the other:
/// its work sends one value and completes, or fails.
private func twoExecutions(_ fixture: SweepFixture, failing: Bool) -> Command<Int, Int, TestError> {
  let command = Command<Int, Int, TestError>(scheduler: fixture.scheduler) { input in
    failing ? .error(TestError(code: input)) : .return(input)
  }
  let scheduler = fixture.scheduler
  fixture.onFire {
    _ = command.execute(1)
    scheduler.advance()
    _ = command.execute(2)
    scheduler.advance()
  }
  return command
}
