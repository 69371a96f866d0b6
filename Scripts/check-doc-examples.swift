// Type-checks the examples of the doc comments (```swift blocks in `///` comments under Sources/) against the
// built modules, with a shared prelude that declares the illustrative names they use (`clicks`, `search`, …).
//
// Usage: swift Scripts/check-doc-examples.swift <modules-dir>
//        (Scripts/build-docs.sh runs it with the modules it has just built)
//
// Each example becomes the body of a `@MainActor func … async throws` in one generated file, preceded by
// `#sourceLocation` so that an error names the doc comment's own file and line. An example that declares an
// extension, a protocol or `@main` goes at file scope instead. Every example must compile: the check fails on the
// first error of each one that does not.
import Foundation

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("check-doc-examples: \(message)\n".utf8))
  exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: check-doc-examples <modules-dir>") }
let modules = arguments[1]
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
  // Testing too: the examples of the test scheduler's recorder check with `#expect`, as a test does.
  var combined = ["import AsyncSignals", "import AsyncSignalsInterop", "import Foundation", "import Testing", ""]
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

let problems = examples.compactMap { example in
  failing[example.key].map { "\(example.file):\(example.line): this example does not compile: \($0)" }
}
if !problems.isEmpty {
  fail("\(problems.count) doc-comment example(s) do not compile:\n" + problems.joined(separator: "\n"))
}
print("check-doc-examples: all \(examples.count) doc-comment examples compile")
