import AsyncSignals
import AsyncSignalsInterop
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// Issue 28, item 3: the memory of a subject fed faster than its `.bounded(4)` loop takes lines.
//
// A producer sends N lines of about 60 bytes into a subject; a `for await` loop reads them through
// `values(bufferingPolicy: .bounded(4))` and does a little work per line (a checksum of its bytes). Two producers:
//
// - `await`: a task that sends with `await subject.send(line)`, which waits while the loop has 4 lines it has not
//   read. Memory should stay flat whatever N is.
// - `thread`: a plain thread that sends with `subject.sendNext(line)`, which never waits: what the loop has not read
//   yet is buffered (and counted in `overflowCount`), so memory grows with the backlog.
//
// Each run is a process of its own, so that its peak resident memory (VmHWM) is its own. It prints the peak above
// what the process held when the feed started.
//
//   swift run -c release --package-path Benchmarks FlowMemory                 # 1,000,000 and 3,000,000, both
//   swift run -c release --package-path Benchmarks FlowMemory --lines 3000000 --producer await
//
// Linux only (it reads /proc/self/status).

/// A field of /proc/self/status in kB (`VmRSS`, `VmHWM`), or 0.
func status(_ field: String) -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
  for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
    return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
  }
  return 0
}

/// Line `index`: about 60 bytes, made fresh for each send.
func line(_ index: Int) -> String {
  var text = "2026-11-27T15:00:00Z worker-7 INFO request "
  text += String(index)
  while text.utf8.count < 60 { text += "." }
  return text
}

/// A little work per line.
func checksum(_ line: String) -> Int {
  var sum = 0
  for _ in 0..<4 {
    for byte in line.utf8 { sum = sum &* 31 &+ Int(byte) }
  }
  return sum
}

struct Run {
  let lines: Int
  let producer: String
}

func measure(_ run: Run) async -> String {
  let subject = Subject<String, Never>()
  let values = subject.values(bufferingPolicy: .bounded(4))
  let startRSS = status("VmRSS")
  let started = ContinuousClock.now
  switch run.producer {
  case "await":
    Task.detached {
      while subject.subscriberCount == 0 { await Task.yield() }  // until the loop below has subscribed
      for index in 0..<run.lines { await subject.send(line(index)) }
      subject.sendCompleted()
    }
  default:
    Thread {
      while subject.subscriberCount == 0 { sched_yield() }
      for index in 0..<run.lines { subject.sendNext(line(index)) }
      subject.sendCompleted()
    }.start()
  }
  var total = 0
  var count = 0
  for await text in values {
    total &+= checksum(text)
    count += 1
  }
  let elapsed = ContinuousClock.now - started
  let peak = status("VmHWM")
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  let label = run.producer == "await" ? "await send from a task " : "sendNext from a thread "
  return label
    + String(
      format: "%9d lines: peak %7.1f MB above the start (%.1f MB at the start), %d read, overflowCount %d, %.2f s",
      run.lines, Double(peak - startRSS) / 1024, Double(startRSS) / 1024, count, values.overflowCount, seconds)
    + " (checksum \(total))"
}

let arguments = CommandLine.arguments
func argument(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

if let lines = argument("--lines").flatMap(Int.init), let producer = argument("--producer") {
  print(await measure(Run(lines: lines, producer: producer)))
} else {
  // Each run in a process of its own.
  for lines in [1_000_000, 3_000_000] {
    for producer in ["await", "thread"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/proc/self/exe")  // this program
      process.arguments = ["--lines", String(lines), "--producer", producer]
      try process.run()
      process.waitUntilExit()
    }
  }
}
