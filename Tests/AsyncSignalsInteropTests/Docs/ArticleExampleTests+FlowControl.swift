import AsyncSignals
import AsyncSignalsInterop
import Foundation
import Testing

private func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  DocConsole.shared.print(items, separator: separator)
}

/// The lines of a text file, read one at a time, when the walk asks for the next: the Flow Control article's
/// source that can pause. `linesRead(of:)` says how many lines have been read from a path so far.
struct FileLines: Sequence, Sendable {
  let path: String

  private static let reads = Locked<[String: Int]>([:])

  static func linesRead(of path: String) -> Int { reads.value[path, default: 0] }

  func makeIterator() -> Iterator { Iterator(path: path, handle: FileHandle(forReadingAtPath: path)) }

  struct Iterator: IteratorProtocol {
    let path: String
    let handle: FileHandle?
    var pending = [UInt8]()
    var atEnd = false

    mutating func next() -> String? {
      while true {
        if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: pending[..<newline], as: UTF8.self)
          pending.removeSubrange(...newline)
          FileLines.reads.withLock { $0[path, default: 0] += 1 }
          return line
        }
        guard !atEnd, let handle, let chunk = try? handle.read(upToCount: 256), !chunk.isEmpty else {
          atEnd = true
          return nil  // a last line without a newline is not a record
        }
        pending.append(contentsOf: chunk)
      }
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
    furthestReadAhead = max(furthestReadAhead, FileLines.linesRead(of: path) - written)
    for _ in 0..<5 { await Task.yield() }  // slower than the file
    written += batch.count
    return batch.count
  }
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

  @Test("FlowControl: a file read lazily, parsed and batched, stays within two batches of the archive")
  func flowControlPipeline() async throws {
    let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("flow-control-\(UUID()).log").path
    let contents = (0..<1_000).map { "line \($0)\n" }.joined()
    try contents.write(toFile: logPath, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: logPath) }
    let archive = Archive(readingFrom: logPath)

    let batches = Signal<String, Never>.from(FileLines(path: logPath))
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

  @Test("FlowControl: a subject fed from a task with await send(_:) waits while the loop has two lines it has not read")
  func flowControlSubjectSend() async {
    let lines = Subject<String, Never>()
    let reader = Task {
      for await line in lines.values(bufferingPolicy: .bounded(2)) { print(line) }
    }
    while lines.subscriberCount == 0 { await Task.yield() }  // the loop has subscribed: nothing sent now is lost
    for number in 1...5 {
      await lines.send("line \(number)")  // waits while the loop has two lines it has not read
    }
    lines.sendCompleted()
    await reader.value
    // line 1, line 2, line 3, line 4, line 5
    #expect(console.lines == ["line 1", "line 2", "line 3", "line 4", "line 5"])
  }
}
