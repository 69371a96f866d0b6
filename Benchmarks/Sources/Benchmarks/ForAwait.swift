import AsyncAlgorithms
import AsyncSignals
import OpenCombine

// B13: `for await` over a stream of n values sent by a producer thread, summing them; nothing may be lost.
//
// Registered here: the raw baselines — an AsyncStream fed by the producer (its default, unbounded policy) and
// an AsyncChannel (whose `send` suspends until the consumer takes the value, so its producer is a task) —
// plus what an AsyncSignals user writes today without the Interop module: a subject bridged into an
// AsyncStream by hand. Pending/ForAwaitInterop.swift adds one row per buffering policy of `signal.values` to
// this workload once the Interop module is merged. OpenCombine: its `values` requests one value at a time and
// a PassthroughSubject drops what nobody requested, so it goes through `buffer(size: .max, …)` first.

extension Benchmark {
  mutating func addForAwaitBenchmarks() {
    workload(
      "B13", "`for await` over values sent by a producer thread (issue 13's W7)", unit: "value", size: 1_000_000,
      smokeSize: 1000, target: Target(atMost: 0.5, note: "for await over a signal", relativeTo: "AsyncStream raw (unbounded)"),
      expected: triangle)

    add("B13", .asyncStream, variant: "raw (unbounded)", threaded: true, .async({ n in
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
      _ = StartedThread {
        for value in 0..<n { continuation.yield(value) }
        continuation.finish()
      }
      var sum = 0
      for await value in stream { sum &+= value }
      return sum
    }))
    add("B13", .asyncChannel, variant: "raw", threaded: true, .async({ n in
      let channel = AsyncChannel<Int>()
      Task.detached {
        for value in 0..<n { await channel.send(value) }
        channel.finish()
      }
      var sum = 0
      for await value in channel { sum &+= value }
      return sum
    }))
    add("B13", .asyncSignals, variant: "Subject → AsyncStream by hand", threaded: true, .async({ n in
      let subject = AsyncSignals.Subject<Int, Never>()
      let stream = AsyncStream<Int>(bufferingPolicy: .unbounded) { continuation in
        let subscription = subject.subscribeNext({ continuation.yield($0) }, completed: { continuation.finish() })
        continuation.onTermination = { _ in subscription.dispose() }
      }
      _ = StartedThread {
        for value in 0..<n { subject.sendNext(value) }
        subject.sendCompleted()
      }
      var sum = 0
      for await value in stream { sum &+= value }
      return sum
    }))
    // OpenCombine's `buffer` (like its zip) removes from the front of an array: quadratic in how far the
    // producer runs ahead, so its row runs at a capped size.
    add("B13", .openCombine, variant: "buffer + values", threaded: true, maxSize: 20_000, .async({ n in
      let subject = UncheckedSendable(PassthroughSubject<Int, Never>())
      var iterator = subject.value.buffer(size: .max, prefetch: .keepFull, whenFull: .dropNewest).values
        .makeAsyncIterator()
      _ = StartedThread {
        for value in 0..<n { subject.value.send(value) }
        subject.value.send(completion: .finished)
      }
      var sum = 0
      while let value = await iterator.next() { sum &+= value }
      return sum
    }))
  }
}
