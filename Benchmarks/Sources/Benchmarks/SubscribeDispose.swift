import AsyncSignals
import OpenCombine

// B10: subscribe + dispose churn on a cold single-value signal, made once and subscribed to n times.
// W2b: the same with the signal built in each cycle (issue 13's shape: `return(i)` / `Just(i)`, subscribe, dispose).
//
// AsyncSignals `return`: the library's single-value signal (delivers synchronously when a scheduler is
// current, as it is on the benchmark thread — see main.swift). AsyncSignals `create`: the same through a
// `create` body, which pays for the serial-delivery sink. The "in a task" rows run the same loops in a task, where
// no scheduler is current (the task path of guarantee 5). OpenCombine: `Just`.

extension Benchmark {
  mutating func addSubscribeDisposeBenchmarks() {
    workload(
      "B10", "subscribe + dispose churn on a cold single-value signal, made once", unit: "subscription",
      size: 1_000_000,
      target: Target(atMost: 80, note: "subscribe + dispose"), expected: { $0 })

    add("B10", .floor) { n in
      let sum = Accumulator()
      for _ in 0..<n {
        let subscriber: (Int) -> Void = opaque { sum.add($0) }
        subscriber(1)
      }
      return sum.value
    }
    add("B10", .asyncSignals, variant: "return") { n in
      let sum = Accumulator()
      let signal = Signal<Int, Never>.return(1)
      for _ in 0..<n {
        let subscription = signal.subscribeNext { sum.add($0) }
        subscription.dispose()
      }
      return sum.value
    }
    add("B10", .asyncSignals, variant: "create") { n in
      let sum = Accumulator()
      let signal = Signal<Int, Never>.create { subscriber in
        subscriber.sendNext(1)
        subscriber.sendCompleted()
        return nil
      }
      for _ in 0..<n {
        let subscription = signal.subscribeNext { sum.add($0) }
        subscription.dispose()
      }
      return sum.value
    }
    // Through an operator, with a completion closure: the closures' observer checks, before a terminal event, a flag
    // that the subscription's `dispose()` sets (guarantee 2): a flag and a disposable around the chain's, each time.
    add("B10", .asyncSignals, variant: "create.map, next + completed") { n in
      let sum = Accumulator()
      let signal = Signal<Int, Never>.create { subscriber in
        subscriber.sendNext(1)
        subscriber.sendCompleted()
        return nil
      }.map { $0 }
      for _ in 0..<n {
        let subscription = signal.subscribeNext({ sum.add($0) }, completed: {})
        subscription.dispose()
      }
      return sum.value
    }
    // The same loops in a task, where no scheduler is current: subscribing runs the body at once with the
    // subscription scheduler made current around it (guarantee 5), a path the rows above never take.
    add("B10", .asyncSignals, variant: "return, in a task", .async { n in
      let sum = Accumulator()
      let signal = Signal<Int, Never>.return(1)
      for _ in 0..<n {
        let subscription = signal.subscribeNext { sum.add($0) }
        subscription.dispose()
      }
      return sum.value
    })
    add("B10", .asyncSignals, variant: "create, in a task", .async { n in
      let sum = Accumulator()
      let signal = Signal<Int, Never>.create { subscriber in
        subscriber.sendNext(1)
        subscriber.sendCompleted()
        return nil
      }
      for _ in 0..<n {
        let subscription = signal.subscribeNext { sum.add($0) }
        subscription.dispose()
      }
      return sum.value
    })
    add("B10", .openCombine, variant: "Just") { n in
      let sum = Accumulator()
      let publisher = Just(1)
      for _ in 0..<n {
        let subscription = publisher.sink { sum.add($0) }
        subscription.cancel()
      }
      return sum.value
    }

    workload(
      "W2b", "subscribe + dispose, a single-value signal built per cycle (issue 13's W2b)", unit: "cycle",
      size: 1_000_000, target: Target(atMost: 60, note: "issue 13: W2b ≤ 60"), expected: triangle)

    add("W2b", .floor) { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscriber: (Int) -> Void = opaque { sum.add($0) }
        subscriber(value)
      }
      return sum.value
    }
    add("W2b", .asyncSignals, variant: "return") { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscription = Signal<Int, Never>.return(value).subscribeNext { sum.add($0) }
        subscription.dispose()
      }
      return sum.value
    }
    add("W2b", .openCombine, variant: "Just") { n in
      let sum = Accumulator()
      for value in 0..<n {
        let subscription = Just(value).sink { sum.add($0) }
        subscription.cancel()
      }
      return sum.value
    }
  }
}
