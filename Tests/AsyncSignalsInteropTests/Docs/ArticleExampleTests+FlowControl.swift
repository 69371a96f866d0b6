import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

// The Flow Control article's line reader, exactly as the article shows it (Scripts/check-doc-samples.swift checks
// it): the `Sequence` its samples read a file with.

/// The lines of a text file, each read when the walk asks for it: a `Sequence` that `Signal.from` can pause.
struct FileLines: Sequence, Sendable {
  let path: String

  func makeIterator() -> Iterator { Iterator(handle: FileHandle(forReadingAtPath: path)) }

  struct Iterator: IteratorProtocol {
    let handle: FileHandle?  // nil if the file cannot be opened: no lines
    var bytes: [UInt8] = []
    var start = 0  // where the next line begins in `bytes`

    mutating func next() -> String? {
      while true {
        if let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
          defer { start = newline + 1 }
          return String(decoding: bytes[start..<newline], as: UTF8.self)
        }
        guard let chunk = try? handle?.read(upToCount: 64 * 1024), !chunk.isEmpty else {
          guard start < bytes.count else { return nil }
          defer { start = bytes.count }
          return String(decoding: bytes[start...], as: UTF8.self)  // a last line without a newline
        }
        bytes.removeSubrange(..<start)  // the lines already read
        start = 0
        bytes.append(contentsOf: chunk)
      }
    }
  }
}

/// The article's `FileLines`, counting the lines read from each path and noting whether any was read on the main
/// queue. A sample test that measures how far reading runs ahead declares `typealias FileLines = CountingFileLines`
/// before the sample, so that the sample's lines stay the article's and its reads are counted.
struct CountingFileLines: Sequence, Sendable {
  let path: String

  private static let reads = Locked<[String: Int]>([:])
  private static let readOnMainQueue = Locked<Set<String>>([])

  /// How many lines have been read from `path` so far.
  static func linesRead(of path: String) -> Int { reads.value[path, default: 0] }

  /// Whether a line of `path` was read on the main queue, where the main actor runs.
  static func wasReadOnMainQueue(_ path: String) -> Bool { readOnMainQueue.value.contains(path) }

  func makeIterator() -> Iterator { Iterator(path: path, base: FileLines(path: path).makeIterator()) }

  struct Iterator: IteratorProtocol {
    let path: String
    var base: FileLines.Iterator

    mutating func next() -> String? {
      guard let line = base.next() else { return nil }
      CountingFileLines.reads.withLock { $0[path, default: 0] += 1 }
      if isOnMainQueue() { _ = CountingFileLines.readOnMainQueue.withLock { $0.insert(path) } }
      return line
    }
  }
}

/// A log record of the Flow Control article.
struct LogRecord: Sendable {
  let text: String
  init(parsing line: String) { text = line }
}

/// The Flow Control article's slow writer: writes a batch, and records how far reading its file had run ahead of
/// what it had written.
actor Archive {
  let path: String
  private(set) var written = 0
  private(set) var furthestReadAhead = 0

  init(readingFrom path: String) {
    self.path = path
  }

  func write(_ batch: [LogRecord]) async -> Int {
    furthestReadAhead = max(furthestReadAhead, CountingFileLines.linesRead(of: path) - written)
    for _ in 0..<5 { await Task.yield() }  // slower than the file
    written += batch.count
    return batch.count
  }
}

/// The Flow Control article's slow checker of lines, for `flattenMap(maxConcurrent:)`: records how many checks ran at
/// once, and how far reading its file had run ahead of the checks that had ended.
actor LineChecker {
  let path: String
  private var active = 0
  private var ended = 0
  private(set) var mostAtOnce = 0
  private(set) var furthestReadAhead = 0

  init(readingFrom path: String) {
    self.path = path
  }

  func check(_ line: String) async -> Bool {
    active += 1
    mostAtOnce = max(mostAtOnce, active)
    furthestReadAhead = max(furthestReadAhead, CountingFileLines.linesRead(of: path) - ended)
    for _ in 0..<3 { await Task.yield() }  // slower than the file
    active -= 1
    ended += 1
    return line.hasPrefix("line ")
  }
}

/// A temporary file of `lines` lines, `line 0` to `line <lines - 1>`, each ending in a newline.
private func temporaryLog(lines: Int) throws -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-control-\(UUID()).log").path
  try (0..<lines).map { "line \($0)\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

// MARK: FlowControl.md (Interop.docc)

extension InteropArticleExampleTests {
  @Test("FlowControl: a cold source through map into a bounded loop never holds more than the bound")
  func flowControlSquares() async {
    let squares = Signal<Int, Never>.from(1...100_000).map { $0 * $0 }
    let values = squares.values(bufferingPolicy: .bounded(64))
    var total = 0
    for await square in values { total &+= square }  // never more than 64 squares wait for this loop
    print(total, values.overflowCount)
    // 333338333350000 0
    #expect(console.lines == ["333338333350000 0"])
  }

  @Test("FlowControl: FileLines reads every line, across chunks, a last one without a newline, none of a missing file")
  func flowControlFileLines() throws {
    let directory = FileManager.default.temporaryDirectory
    let path = directory.appendingPathComponent("flow-control-\(UUID()).log").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Lines that straddle the 64 KiB chunks, one longer than a chunk, an empty one, and a last one without a newline.
    let lines = (0..<20_000).map { "record \($0)" } + [String(repeating: "x", count: 100_000), "", "é€ last"]
    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    #expect(Array(FileLines(path: path)) == lines)
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    #expect(Array(FileLines(path: path)) == lines)  // a final newline ends the last line; it adds none
    #expect(Array(FileLines(path: directory.appendingPathComponent("missing-\(UUID())").path)).isEmpty)
  }

  @Test("FlowControl: a file read lazily on a queue, parsed and batched, stays within two batches of the archive")
  func flowControlPipeline() async throws {
    typealias FileLines = CountingFileLines  // the article's FileLines, counting the lines it reads
    let logPath = try temporaryLog(lines: 1_000)
    defer { try? FileManager.default.removeItem(atPath: logPath) }
    let archive = Archive(readingFrom: logPath)

    let reader = QueueScheduler(name: "reader")  // the file is read here: a blocking read, off the loop's executor
    let batches = Signal<String, Never>.from(FileLines(path: logPath))
      .subscribe(on: reader)
      .map { LogRecord(parsing: $0) }
      .buffer(count: 100)
    var written = 0
    for await batch in batches.values(bufferingPolicy: .bounded(2)) {
      written += await archive.write(batch)  // reading pauses while two batches wait for the archive
    }
    print(written)
    // 1000
    #expect(console.lines == ["1000"])
    // The batch being written, two batches waiting for the loop, fewer than 100 lines in buffer(count:).
    #expect(await archive.furthestReadAhead <= 100 + 2 * 100 + 99)
    #expect(await archive.furthestReadAhead >= 100)  // it did read ahead: the archive was slower
    #expect(!CountingFileLines.wasReadOnMainQueue(logPath))  // this loop runs on the main actor; the file did not
  }

  @Test("FlowControl: flattenMap(maxConcurrent: 4) reads a line only while fewer than 4 checks are in hand")
  func flowControlBoundedConcurrency() async throws {
    typealias FileLines = CountingFileLines  // the article's FileLines, counting the lines it reads
    let logPath = try temporaryLog(lines: 1_000)
    defer { try? FileManager.default.removeItem(atPath: logPath) }
    let checker = LineChecker(readingFrom: logPath)

    let reader = QueueScheduler(name: "reader")
    let checked = Signal<String, Never>.from(FileLines(path: logPath))
      .subscribe(on: reader)
      .flattenMap(maxConcurrent: 4) { line in Signal.async { await checker.check(line) } }
    var valid = 0
    for await isValid in checked.values(bufferingPolicy: .bounded(16)) {
      if isValid { valid += 1 }  // the file is read no further than 4 lines past the checks that have ended
    }
    print(valid)
    // 1000
    #expect(console.lines == ["1000"])
    #expect(await checker.mostAtOnce <= 4)
    // A line is read only while fewer than 4 checks are in hand (a place is taken as its line is read, and given back
    // once its check has ended and sent its result): never more than 4 lines read and not checked.
    #expect(await checker.furthestReadAhead <= 4)
    #expect(!CountingFileLines.wasReadOnMainQueue(logPath))
  }

  @Test("FlowControl: an async producer suspends in send(_:) while the loop has two pages it has not read")
  func flowControlPages() async {
    let pages = Signal<Int, Never>.async { subscriber in
      for page in 1...5 {
        await subscriber.send(page)  // waits while the loop has two pages it has not read
      }
    }
    for await page in pages.values(bufferingPolicy: .bounded(2)) { print("page", page) }
    // page 1, page 2, page 3, page 4, page 5
    #expect(console.lines == ["page 1", "page 2", "page 3", "page 4", "page 5"])
  }

  @Test("FlowControl: a producer started by doSubscribed feeds the loop with await send(_:), within two lines")
  func flowControlSubjectSend() async {
    let lines = Subject<String, Never>()
    let fed = lines.doSubscribed {
      // The loop has subscribed: nothing sent from now on is lost.
      Task {
        for number in 1...5 {
          // Waits while the loop has two lines it has not read; stops if the loop has ended.
          guard await lines.send("line \(number)") == .sent else { return }
        }
        lines.sendCompleted()
      }
    }
    for await line in fed.values(bufferingPolicy: .bounded(2)) { print(line) }
    // line 1, line 2, line 3, line 4, line 5
    #expect(console.lines == ["line 1", "line 2", "line 3", "line 4", "line 5"])
  }

  @Test("FlowControl: the producer stops by itself once the loop has gone: send returns .loopsEnded")
  func flowControlProducerStops() async {
    let readings = Subject<Int, Never>()
    let fed = readings.doSubscribed {
      Task {
        var reading = 0
        while await readings.send(reading) == .sent { reading += 1 }  // .loopsEnded once the loop has gone
        print("producer stopped")
      }
    }
    for await reading in fed.values(bufferingPolicy: .bounded(2)) {
      print("reading", reading)
      if reading == 2 { break }
    }
    // reading 0, reading 1, reading 2, producer stopped
    #expect(await console.lines(atLeast: 4) == ["reading 0", "reading 1", "reading 2", "producer stopped"])
  }

  @Test("FlowControl: highWaterMark says how far ahead of the loop the source ran: the bound, for a source that pauses")
  func flowControlHighWaterMark() async {
    let readings = Signal<Int, Never>.from(1...10_000)
    let values = readings.values(bufferingPolicy: .bounded(64))
    for await _ in values {}
    print(values.highWaterMark, values.overflowCount)
    // 64 0
    #expect(console.lines == ["64 0"])
  }
}
