import AsyncAlgorithms
import Foundation

// The baselines, in the same process and the same release build (`-O`, as the library's): the same stages on the same
// records, written without the library.
//
// - hand: the same threads as the library's rows, joined by `BlockingQueue`s of 64 places (blocking and batch-draining).
// - AsyncStream: tasks joined by unbounded streams. `.bufferingOldest(64)` would bound the stream by dropping values,
//   which is not flow control, so the unbounded stream is the async baseline: it measures the cost of the bridge
//   between a producer and a loop without a bound.
// - AsyncChannel (swift-async-algorithms): tasks joined by channels, whose `send` suspends until the loop takes the
//   value — a bound of zero.
// - TaskGroup, for (c): at most 4 child tasks at once, each returning its number.

/// Runs `body` on a thread of its own, for a consumer that blocks, without holding a thread of the cooperative pool.
func onThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: body()) }.start()
  }
}

/// Takes batches from `queue` until it is finished, giving each value to `consume`.
func drainAll<Value>(_ queue: BlockingQueue<Value>, _ consume: (Value) -> Void) {
  var batch: [Value] = []
  batch.reserveCapacity(queue.capacity)
  while queue.drain(into: &batch) {
    for value in batch { consume(value) }
    batch.removeAll(keepingCapacity: true)
  }
}

/// (a) by hand: a reader thread walks `source` and pushes `first` of each element into a queue; a consumer thread
/// takes batches.
func handStraight<Source: Sequence & Sendable, Value: Sendable>(
  _ source: Source, _ first: @escaping @Sendable (Source.Element) -> Value,
  _ consume: @escaping @Sendable (inout Outcome, Value) -> Void
) async -> Outcome {
  let queue = BlockingQueue<Value>(capacity: bound)
  Thread {
    for element in source { queue.push(first(element)) }
    queue.finish()
  }.start()
  return await onThread {
    var outcome = Outcome()
    drainAll(queue) { consume(&outcome, $0) }
    return outcome
  }
}

/// (b), (g), (h) by hand: the reader thread, a parser thread that takes batches from the first queue and pushes
/// `second` of each value into a second queue, and the consumer thread.
func handHop<Source: Sequence & Sendable, Value: Sendable, Refined: Sendable>(
  _ source: Source, _ first: @escaping @Sendable (Source.Element) -> Value,
  _ second: @escaping @Sendable (Value) -> Refined, _ consume: @escaping @Sendable (inout Outcome, Refined) -> Void
) async -> Outcome {
  let read = BlockingQueue<Value>(capacity: bound)
  let parsed = BlockingQueue<Refined>(capacity: bound)
  Thread {
    for element in source { read.push(first(element)) }
    read.finish()
  }.start()
  Thread {
    drainAll(read) { parsed.push(second($0)) }
    parsed.finish()
  }.start()
  return await onThread {
    var outcome = Outcome()
    drainAll(parsed) { consume(&outcome, $0) }
    return outcome
  }
}

/// Reads `stream` to its end in a detached task.
func loopOver<Value: Sendable>(
  _ stream: some AsyncSequence<Value, Never> & Sendable, _ consume: @escaping @Sendable (inout Outcome, Value) -> Void
) async -> Outcome {
  await Task.detached {
    var outcome = Outcome()
    for await value in stream { consume(&outcome, value) }
    return outcome
  }.value
}

/// (a), (d) with AsyncStream: a task walks `source` and yields `first` of each element into an unbounded stream.
func streamStraight<Source: Sequence & Sendable, Value: Sendable>(
  _ source: Source, _ first: @escaping @Sendable (Source.Element) -> Value,
  _ consume: @escaping @Sendable (inout Outcome, Value) -> Void
) async -> Outcome {
  let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
  Task.detached {
    for element in source { continuation.yield(first(element)) }
    continuation.finish()
  }
  return await loopOver(stream, consume)
}

/// (b) with AsyncStream: a reader task, a parser task between two unbounded streams, the loop.
func streamHop<Source: Sequence & Sendable, Value: Sendable, Refined: Sendable>(
  _ source: Source, _ first: @escaping @Sendable (Source.Element) -> Value,
  _ second: @escaping @Sendable (Value) -> Refined, _ consume: @escaping @Sendable (inout Outcome, Refined) -> Void
) async -> Outcome {
  let (read, reader) = AsyncStream.makeStream(of: Value.self)
  let (parsed, parser) = AsyncStream.makeStream(of: Refined.self)
  Task.detached {
    for element in source { reader.yield(first(element)) }
    reader.finish()
  }
  Task.detached {
    for await value in read { parser.yield(second(value)) }
    parser.finish()
  }
  return await loopOver(parsed, consume)
}

/// (e) with AsyncStream: a plain thread yields into an unbounded stream (it never waits either).
func streamFromThread(records: Int) async -> Outcome {
  let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
  Thread {
    for value in 0..<records { continuation.yield(value) }
    continuation.finish()
  }.start()
  return await loopOver(stream) { $0.add($1) }
}

/// (a), (d) with AsyncChannel: a task walks `source` and awaits `send` of `first` of each element.
func channelStraight<Source: Sequence & Sendable, Value: Sendable>(
  _ source: Source, _ first: @escaping @Sendable (Source.Element) -> Value,
  _ consume: @escaping @Sendable (inout Outcome, Value) -> Void
) async -> Outcome {
  let channel = AsyncChannel<Value>()
  Task.detached {
    for element in source { await channel.send(first(element)) }
    channel.finish()
  }
  return await loopOver(channel, consume)
}

/// (b) with AsyncChannel: a reader task, a parser task between two channels, the loop.
func channelHop<Source: Sequence & Sendable, Value: Sendable, Refined: Sendable>(
  _ source: Source, _ first: @escaping @Sendable (Source.Element) -> Value,
  _ second: @escaping @Sendable (Value) -> Refined, _ consume: @escaping @Sendable (inout Outcome, Refined) -> Void
) async -> Outcome {
  let read = AsyncChannel<Value>()
  let parsed = AsyncChannel<Refined>()
  Task.detached {
    for element in source { await read.send(first(element)) }
    read.finish()
  }
  Task.detached {
    for await value in read { await parsed.send(second(value)) }
    parsed.finish()
  }
  return await loopOver(parsed, consume)
}

/// (c) with a task group: a child task per number, at most 4 at once, their results summed as they finish.
func taskGroup(records: Int) async -> Outcome {
  await Task.detached {
    await withTaskGroup(of: Int.self) { group in
      var outcome = Outcome()
      var running = 0
      for value in 0..<records {
        if running == 4, let result = await group.next() {
          outcome.add(result)
          running -= 1
        }
        group.addTask { value }
        running += 1
      }
      for await result in group { outcome.add(result) }
      return outcome
    }
  }.value
}
