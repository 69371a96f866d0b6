// Type-checks the examples of the doc comments (```swift blocks in `///` comments under Sources/) against the
// built modules, with a shared prelude that declares the illustrative names they use (`clicks`, `search`, …).
//
// Usage: swift Scripts/check-doc-examples.swift <modules-dir> [--update]
//        (Scripts/build-docs.sh runs it with the modules it has just built)
//
// Each example becomes the body of a `@MainActor func … async throws` in one generated file, preceded by
// `#sourceLocation` so that an error names the doc comment's own file and line. An example that declares an
// extension, a protocol or `@main` goes at file scope instead.
//
// Not every example compiles yet. Scripts/DocExamples/Pending.txt lists the ones that do not, each by its file and
// a hash of its text: the check fails on an example that does not compile and is not listed (a new or edited
// example must compile), and on a listed one that now compiles (the list only shrinks). `--update` rewrites the
// list from the current failures.
import Foundation

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("check-doc-examples: \(message)\n".utf8))
  exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: check-doc-examples <modules-dir> [--update]") }
let modules = arguments[1]
let update = arguments.contains("--update")
let fileManager = FileManager.default

struct Example {
  let file: String
  let line: Int  // the line of the example's first line of code
  let lines: [String]
  var key: String { "\(file) \(hash)" }
  var hash: String {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, stable across runs (Swift's Hasher is seeded)
    for byte in lines.joined(separator: "\n").utf8 {
      value ^= UInt64(byte)
      value = value &* 0x100_0000_01b3
    }
    return String(value, radix: 16)
  }
  var atFileScope: Bool {
    lines.contains { line in
      ["extension ", "protocol ", "@main", "import "].contains { line.hasPrefix($0) }
    }
  }
}

func read(_ path: String) -> String {
  guard let data = fileManager.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
    fail("cannot read \(path)")
  }
  return text
}

var examples: [Example] = []
let sources = (fileManager.enumerator(atPath: "Sources")?.compactMap { $0 as? String } ?? [])
  .filter { $0.hasSuffix(".swift") }.sorted().map { "Sources/\($0)" }
for file in sources {
  var current: (line: Int, lines: [String])?
  for (index, raw) in read(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    let trimmed = raw.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("///") else {
      current = nil
      continue
    }
    var text = trimmed.dropFirst(3)
    if text.hasPrefix(" ") { text = text.dropFirst() }
    let fence = text.trimmingCharacters(in: .whitespaces)
    if var block = current {
      if fence == "```" {
        examples.append(Example(file: file, line: block.line, lines: block.lines))
        current = nil
      } else {
        block.lines.append(String(text))
        current = block
      }
    } else if fence == "```swift" || fence == "```" {
      current = (index + 2, [])
    }
  }
}

let scratch = ".build-docs/doc-examples"
try? fileManager.createDirectory(atPath: scratch, withIntermediateDirectories: true)

/// Runs swiftc with `arguments` and returns its output.
func swiftc(_ arguments: [String]) -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["swiftc"] + arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  do { try process.run() } catch { fail("cannot run swiftc: \(error)") }
  let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return output
}

/// The examples the `error:` lines of `output` name, with the first error of each.
func failures(in output: String) -> (failing: [String: String], unmapped: [String]) {
  var failing: [String: String] = [:]
  var unmapped: [String] = []
  for line in output.split(separator: "\n") where line.contains(": error: ") {
    let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
    guard parts.count == 4, let number = Int(parts[1]) else { continue }
    let file = String(parts[0]).replacingOccurrences(of: fileManager.currentDirectoryPath + "/", with: "")
    if let example = examples.first(where: {
      $0.file == file && number >= $0.line && number < $0.line + max($0.lines.count, 1)
    }) {
      if failing[example.key] == nil { failing[example.key] = String(line) }
    } else {
      unmapped.append(String(line))
    }
  }
  return (failing, unmapped)
}

/// Writes the examples that have not failed yet into one file, each in a function of its own (or at file scope).
func writeExamples(skipping failing: [String: String]) -> String {
  var combined = ["import AsyncSignals", "import AsyncSignalsInterop", "import Foundation", ""]
  for (number, example) in examples.enumerated() where failing[example.key] == nil {
    let body = ["#sourceLocation(file: \"\(example.file)\", line: \(example.line))"] + example.lines + ["#sourceLocation()"]
    combined += example.atFileScope ? body : ["@MainActor func docExample\(number)() async throws {"] + body + ["}"]
  }
  let path = "\(scratch)/Examples.swift"
  _ = fileManager.createFile(atPath: path, contents: Data(combined.joined(separator: "\n").utf8))
  return path
}

// A syntax error anywhere stops all type checking, so the examples are parsed first: those with syntax errors are
// set aside, and the rest parsed again, until they all parse (the parser does not always report every broken
// example in one pass). Then they are type-checked together, with the prelude, in one frontend job.
var failing: [String: String] = [:]
var unmapped: [String] = []
var file = writeExamples(skipping: failing)
while true {
  let parsed = failures(in: swiftc(["-parse", file]))
  unmapped += parsed.unmapped
  guard !parsed.failing.isEmpty else { break }
  failing.merge(parsed.failing) { first, _ in first }
  file = writeExamples(skipping: failing)
}
let checked = failures(
  in: swiftc([
    "-typecheck", "-swift-version", "6", "-I", modules, "-module-name", "DocExamples",
    "Scripts/DocExamples/Prelude.swift", file,
  ]))
failing.merge(checked.failing) { first, _ in first }
unmapped += checked.unmapped
if !unmapped.isEmpty {
  fail("errors outside the examples (in the prelude?):\n" + unmapped.prefix(20).joined(separator: "\n"))
}

let pendingPath = "Scripts/DocExamples/Pending.txt"
let header = """
  # Doc-comment examples that do not compile yet against Scripts/DocExamples/Prelude.swift, by file and a hash of
  # the example's text (Scripts/check-doc-examples.swift). Fix one, or declare what it needs in the prelude, then
  # remove its line; an edited example gets a new hash, so it must compile (or be listed again, deliberately).
  """
if update {
  let lines = examples.filter { failing[$0.key] != nil }.map { "\($0.key)  # line \($0.line): \($0.lines.first ?? "")" }
  _ = fileManager.createFile(atPath: pendingPath, contents: Data((header + "\n" + lines.joined(separator: "\n") + "\n").utf8))
  print("check-doc-examples: \(lines.count) of \(examples.count) examples listed as pending in \(pendingPath)")
  exit(0)
}

let pending = Set(
  read(pendingPath).split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
    .map { ($0.split(separator: "#", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces) }
    .filter { !$0.isEmpty })
let present = Set(examples.map(\.key))
let newFailures = examples.filter { failing[$0.key] != nil && !pending.contains($0.key) }
let nowCompiling = examples.filter { failing[$0.key] == nil && pending.contains($0.key) }
var problems: [String] = []
for example in newFailures {
  problems.append("\(example.file):\(example.line): this example does not compile: \(failing[example.key] ?? "")")
}
for example in nowCompiling {
  problems.append("\(example.file):\(example.line): this example compiles now: remove '\(example.key)' from \(pendingPath)")
}
if !problems.isEmpty {
  fail("\(problems.count) problem(s):\n" + problems.joined(separator: "\n"))
}
let stale = pending.subtracting(present).count
print(
  "check-doc-examples: \(examples.count - failing.count) of \(examples.count) doc-comment examples compile;"
    + " \(failing.count) are listed as pending\(stale > 0 ? " (\(stale) stale entries in \(pendingPath))" : "")")
