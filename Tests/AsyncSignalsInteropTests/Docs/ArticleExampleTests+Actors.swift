import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

/// The failure of the Actors article's login.
struct LoginError: Error, CustomStringConvertible {
  var description: String { "wrong password" }
}

/// The counter of the Actors article's "Scheduling on an actor".
actor TapCounter {
  var count = 0
}

// MARK: Actors.md (Docs.docc)

extension InteropArticleExampleTests {
  @Test("Actors: an actor publishes its state through a replaying subject")
  func actorsThermometer() async {
    actor Thermometer {
      nonisolated let readings = BehaviorSubject<Double, Never>(value: 20)  // replays the current value

      nonisolated var temperature: Signal<Double, Never> { readings }

      func record(_ celsius: Double) {
        readings.sendNext(celsius)
      }
    }

    let thermometer = Thermometer()
    thermometer.temperature.subscribeNext { print("now", $0) }  // now 20.0, at once
    await thermometer.record(22.5)  // now 22.5
    #expect(console.lines == ["now 20.0", "now 22.5"])
  }

  @Test("Actors: an actor consumes a signal in its own isolation; disposing on the actor stops it")
  func actorsThermostat() async {
    actor Thermostat {
      private(set) var heating = false
      private var subscription: (any Disposable)?

      func follow(_ temperature: Signal<Double, Never>) {
        subscription = temperature.subscribeNext(isolatedTo: self) { thermostat, celsius in
          thermostat.heating = celsius < 19  // the actor's state: no await, checked by the compiler
        }
      }

      func stop() {
        subscription?.dispose()  // after this returns, on the actor, no callback runs again
      }
    }

    let thermostat = Thermostat()
    let temperature = BehaviorSubject<Double, Never>(value: 18)
    await thermostat.follow(temperature)  // subscribed in the actor's own isolation: 18 delivered at once
    #expect(await thermostat.heating)
    await thermostat.stop()
    temperature.sendNext(25)
    #expect(await thermostat.heating)  // stopped: 25 never arrived
    #expect(temperature.subscriberCount == 0)
  }

  @Test("Actors: an actor on a QueueScheduler: a send on its queue delivers at once, others by one job")
  func actorsLogbook() async {
    actor Logbook {
      nonisolated let scheduler = QueueScheduler(name: "logbook")
      nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
      private(set) var lines: [String] = []

      func keep(_ entries: Signal<String, Never>) -> any Disposable {
        entries.subscribeNext(isolatedTo: self) { logbook, entry in logbook.lines.append(entry) }
      }

      func write(_ entry: String, to entries: Subject<String, Never>) -> Int {
        entries.sendNext(entry)  // on the logbook's own queue, with nothing waiting
        return lines.count
      }
    }

    let logbook = Logbook()
    let entries = Subject<String, Never>()
    let keeping = await logbook.keep(entries)
    print(await logbook.write("written on the logbook's queue", to: entries))  // 1: delivered before sendNext returned
    entries.sendNext("sent from elsewhere")  // queued for a job on the logbook's queue
    print(await logbook.lines.count)  // 2: the job ran before this call, which was queued after it
    #expect(console.lines == ["1", "2"])
    #expect(await logbook.lines == ["written on the logbook's queue", "sent from elsewhere"])
    keeping.dispose()
  }

  @Test("Actors: a binding to an actor that provides a lifetime ends when the actor goes away")
  func actorsHeater() async {
    actor Heater: LifetimeProviding {
      nonisolated let lifetime = Lifetime()  // bindings to the heater end when it goes away
      private(set) var target = 20.0

      func follow(_ setting: Signal<Double, Never>) {
        setting.bind(isolatedTo: self) { heater, celsius in heater.target = celsius }
      }
    }

    let setting = BehaviorSubject<Double, Never>(value: 21)
    weak var weakHeater: Heater?
    do {
      let heater = Heater()
      weakHeater = heater
      await heater.follow(setting)  // from the heater's isolation: 21 is set at once
      #expect(await heater.target == 21)
      #expect(setting.subscriberCount == 1)
    }
    #expect(weakHeater == nil)
    #expect(setting.subscriberCount == 0)  // ended with the heater, before any further value
  }

  @Test("Actors: a @MainActor model takes values with @MainActor closures, at once on the main queue")
  @MainActor
  func actorsSearchModel() {
    @MainActor final class SearchModel {
      var results: [String] = []
      private var subscription: (any Disposable)?

      func follow(_ searches: Signal<[String], Never>) {
        subscription = searches.subscribeNext(onMainThread: { self.results = $0 })
      }
    }

    let model = SearchModel()
    let searches = Subject<[String], Never>()
    model.follow(searches)
    searches.sendNext(["swift"])
    #expect(model.results == ["swift"])  // sent on the main queue with nothing waiting: no hop
  }

  @Test("Actors: deliver(on:) an ActorScheduler runs each delivery in the actor's isolation")
  func actorsTapCounter() async {
    let counter = TapCounter()
    let onCounter = ActorScheduler(counter)
    let taps = Subject<Void, Never>()
    taps.deliver(on: onCounter).subscribeNext { _ in
      counter.assumeIsolated { $0.count += 1 }  // holds: the block runs in the counter's isolation
    }
    for _ in 0..<3 { taps.sendNext(()) }
    await withCheckedContinuation { continuation in onCounter.schedule { continuation.resume() } }
    #expect(await counter.count == 3)
  }

  @Test("Actors: a main-actor view model binds a command's state on the main actor")
  func actorsLoginModel() async {
    @MainActor final class LoginModel {
      var isLoggingIn = false
      var message = ""
      let login: Command<String, String, LoginError>
      private var subscriptions: [any Disposable] = []

      init(logIn: @escaping @Sendable (String) async throws(LoginError) -> String) {
        login = Command(execute: logIn)  // made on the main actor: its signals deliver on the main queue
        subscriptions.append(login.executing.subscribeNext(onMainActor: { [weak self] in self?.isLoggingIn = $0 }))
        subscriptions.append(login.errors.subscribeNext(onMainActor: { [weak self] in self?.message = "\($0)" }))
      }

      func logIn(as user: String) {
        login.execute(user).subscribeNext(
          onMainActor: { [weak self] name in self?.message = "welcome, \(name)" }, error: { _ in })
      }
    }

    let gate = Gate()
    let model = LoginModel { user async throws(LoginError) -> String in
      await gate.wait()
      guard user == "ada" else { throw LoginError() }
      return "Ada"
    }
    model.logIn(as: "ada")
    #expect(model.login.isExecuting)  // at once, ahead of the executing signal
    // The command sends on the main queue, to the model's subscriptions before this test's later ones: when a wait
    // below has a value, the model's main-actor delivery of it is already queued, so one main-queue turn later the
    // model shows it.
    _ = await model.login.executing.filter { $0 }.first()
    await mainQueueTurn()
    #expect(model.isLoggingIn)
    gate.open()
    // The execution's value reached the model's subscription (and queued its delivery) before the execution ended,
    // which is when the command decides that `executing` falls.
    _ = await model.login.executing.filter { !$0 }.first()
    await mainQueueTurn()
    #expect(model.message == "welcome, Ada")
    #expect(!model.isLoggingIn)
    model.logIn(as: "bob")
    _ = await model.login.errors.first()  // subscribed before the command can send: it sends on the main queue
    await mainQueueTurn()
    #expect(model.message == "wrong password")
    #expect(!model.login.isExecuting)
  }
}
