// Fails when a code sample of the documentation catalogs is not mirrored, line for line, by a test.
//
// Usage: swift Scripts/check-doc-samples.swift   (from the package root; Scripts/build-docs.sh runs it)
//
// Every ```swift block of the articles and landing pages (`Docs.docc/**/*.md`, `Interop.docc/**/*.md`) must
// appear in one of the test files under `Tests/*/Docs/`, as a contiguous run of lines. Indentation, blank lines
// and `import` lines are ignored, so a sample can sit inside a test function, and a test may add lines before
// and after it (set-up, assertions). The tests compile and run the samples (`swift test`); this check makes sure
// the samples the reader sees are the ones the tests run, so that neither can change without the other.
import Foundation

let fileManager = FileManager.default  // paths are relative to the package root, where the script is run

func files(under directory: String, suffix: String) -> [String] {
  guard let enumerator = fileManager.enumerator(atPath: directory) else { return [] }
  return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(suffix) }.map { "\(directory)/\($0)" }.sorted()
}

func read(_ path: String) -> String {
  guard let data = fileManager.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
    FileHandle.standardError.write(Data("check-doc-samples: cannot read \(path)\n".utf8))
    exit(2)
  }
  return text
}

/// The lines that matter for the comparison: trimmed, without blank and `import` lines.
func significant(_ lines: some Sequence<Substring>) -> [String] {
  lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
}

struct Sample {
  let file: String
  let line: Int
  let lines: [String]
}

var samples: [Sample] = []
for catalog in ["Docs.docc", "Interop.docc"] {
  for file in files(under: catalog, suffix: ".md") {
    var current: (start: Int, lines: [Substring])?
    var inExemptBlock = false  // inside a ```sh or ```text block, whose closing fence opens nothing
    for (index, line) in read(file).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if inExemptBlock {
        if trimmed == "```" { inExemptBlock = false }
      } else if var block = current {
        if trimmed == "```" {
          samples.append(Sample(file: file, line: block.start, lines: significant(block.lines)))
          current = nil
        } else {
          block.lines.append(line)
          current = block
        }
      } else if trimmed.hasPrefix("```") {
        let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
        // Unlabelled blocks count as Swift: a sample must say so to be exempt (```sh, ```text).
        if language.isEmpty || language == "swift" { current = (index + 1, []) } else { inExemptBlock = true }
      }
    }
  }
}

let tests =
  (files(under: "Tests/AsyncSignalsTests/Docs", suffix: ".swift")
  + files(under: "Tests/AsyncSignalsInteropTests/Docs", suffix: ".swift")).map { file in
    (file, significant(read(file).split(separator: "\n", omittingEmptySubsequences: false)))
  }

func contains(_ haystack: [String], _ needle: [String]) -> Bool {
  guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
  for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
    if Array(haystack[start..<(start + needle.count)]) == needle { return true }
  }
  return false
}

var unmatched: [Sample] = []
for sample in samples where !tests.contains(where: { contains($0.1, sample.lines) }) {
  unmatched.append(sample)
}

if unmatched.isEmpty {
  print("check-doc-samples: all \(samples.count) samples are mirrored by tests in Tests/*/Docs")
} else {
  FileHandle.standardError.write(
    Data("check-doc-samples: \(unmatched.count) samples are not mirrored by a test in Tests/*/Docs:\n".utf8))
  for sample in unmatched {
    FileHandle.standardError.write(
      Data("  \(sample.file):\(sample.line): \(sample.lines.first ?? "(empty)")\n".utf8))
  }
  exit(1)
}
