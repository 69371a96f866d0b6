// Fails when a public symbol of a module lacks documentation.
//
// Usage: swift Scripts/check-doc-coverage.swift <symbol-graph-dir> <documentation-coverage.json>
//
// <symbol-graph-dir> holds the module's own graph (`Module.symbols.json`) and its extension graphs
// (`Module@Other.symbols.json`: what the module adds to another module's types, such as Interop's members on
// `Signal`). `docc convert --experimental-documentation-coverage` reports which pages have an abstract, but it
// also lists pages that are not ours to document:
// - collection groups it synthesises (not symbols);
// - default implementations that our types inherit from other modules' protocols (`Equatable.!=`,
//   `AsyncSequence.map`), which the symbol graph marks `::SYNTHESIZED::`;
// - the container pages it synthesises for what a module extends — the extended module (`AsyncSignals`,
//   `_Concurrency`, `FoundationEssentials`) and the extended type (`AsyncSignals/Signal`,
//   `_Concurrency/AsyncSequence`, `FoundationEssentials/NotificationCenter`) — whose kinds are
//   `org.swift.docc.kind.extended…` and which have no declaration of ours to carry an abstract; likewise the
//   `swift.extension` blocks of the symbol graph.
// Everything else fails the check if it is declared in this module, is public, and has no doc comment in the
// symbol graph or no abstract in docc's coverage report. On success the check prints how many of docc's pages
// without an abstract fall in each of these groups, which is why docc's percentages are below 100 while this
// check passes.
import Foundation

func fail(_ message: String, status: Int32 = 2) -> Never {
  FileHandle.standardError.write(Data("check-doc-coverage: \(message)\n".utf8))
  exit(status)
}

func load(_ path: String) -> Any {
  guard let data = FileManager.default.contents(atPath: path),
    let json = try? JSONSerialization.jsonObject(with: data)
  else { fail("cannot read \(path)") }
  return json
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  fail("usage: check-doc-coverage <symbol-graph-dir> <documentation-coverage.json>")
}

let graphDirectory = arguments[1]
let graphFiles = ((try? FileManager.default.contentsOfDirectory(atPath: graphDirectory)) ?? [])
  .filter { $0.hasSuffix(".symbols.json") }.sorted()
guard !graphFiles.isEmpty else { fail("no symbol graphs in \(graphDirectory)") }

var missing: [String] = []
var inheritedPaths: Set<String> = []
var declaredCount = 0
for file in graphFiles {
  // `Module@Other.symbols.json`: docc files these symbols under `Other/`, the extended module's page.
  let name = file.dropLast(".symbols.json".count)
  let prefix = name.split(separator: "@").dropFirst().first.map { "\($0)/" } ?? ""
  let graph = load("\(graphDirectory)/\(file)") as? [String: Any] ?? [:]
  for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
    let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
    let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? ""
    let path = prefix + (symbol["pathComponents"] as? [String] ?? []).joined(separator: "/")
    if identifier.contains("::SYNTHESIZED::") {
      inheritedPaths.insert(path)
      continue
    }
    guard kind != "swift.extension" else { continue }  // the extension block, not a declaration
    guard ["public", "open"].contains(symbol["accessLevel"] as? String ?? "") else { continue }
    declaredCount += 1
    let lines = (symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
    let text = lines.compactMap { $0["text"] as? String }.joined().trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { missing.append("\(path) (no doc comment)") }
  }
}

/// A coverage page path without docc's disambiguation suffixes (`swap(_:)-1a2b3`).
func normalised(_ reference: String) -> String {
  guard let range = reference.range(of: "/documentation/") else { return reference }
  let components = reference[range.upperBound...].split(separator: "/").dropFirst()
  return components.map { component in
    if let dash = component.lastIndex(of: "-"), !component[component.index(after: dash)...].contains(")") {
      return String(component[..<dash])
    }
    return String(component)
  }.joined(separator: "/")
}

// docc's own table ("Members 86%", "Globals 25%") counts every page without an abstract, whoever declared it. Each
// one is accounted for here, by reason, so that the two reports can be read side by side.
var containerCount = 0
var withoutExample: [String] = []  // pages of our declarations that have an abstract but no code listing
var inheritedCount = 0
var groupCount = 0
var articleCount = 0
let coverage = load(arguments[2]) as? [[String: Any]] ?? []
for page in coverage {
  let kind = page["kind"] as? [String: Any] ?? [:]
  guard page["hasAbstract"] as? Bool == false else {
    let id = kind["id"] as? String ?? ""
    if kind["isSymbol"] as? Bool == true, page["hasCodeListing"] as? Bool == false,
      !id.hasPrefix("org.swift.docc.kind.extended")
    {
      withoutExample.append(page["referencePath"] as? String ?? "?")
    }
    continue
  }
  guard kind["isSymbol"] as? Bool == true else {
    // Not symbols: docc never records an abstract for articles, nor for the "…-Implementations" groups it makes.
    if kind["id"] as? String == "org.swift.docc.kind.article" { articleCount += 1 } else { groupCount += 1 }
    continue
  }
  if (kind["id"] as? String ?? "").hasPrefix("org.swift.docc.kind.extended") {
    containerCount += 1  // a page docc synthesises for an extended module or type
    continue
  }
  let path = normalised(page["referencePath"] as? String ?? "")
  if inheritedPaths.contains(path) {
    inheritedCount += 1
    continue
  }
  missing.append("\(path) (no abstract)")
}

if missing.isEmpty {
  print("check-doc-coverage: all \(declaredCount) public symbols are documented")
  let total = inheritedCount + groupCount + articleCount + containerCount
  print(
    "check-doc-coverage: docc's table above counts \(total) pages without an abstract, none of them a declaration"
      + " of this module: \(inheritedCount) default implementations inherited from other modules' protocols"
      + " (Sequence, Equatable, Error, …), \(containerCount) container pages for extended modules and types,"
      + " \(groupCount) collection groups and \(articleCount) articles (docc records no abstract for either)")
  guard withoutExample.isEmpty else {
    FileHandle.standardError.write(
      Data("check-doc-coverage: documented symbols without an example (a ```swift block):\n".utf8))
    for path in withoutExample.sorted() { FileHandle.standardError.write(Data("  \(path)\n".utf8)) }
    exit(1)
  }
  print("check-doc-coverage: every documented symbol has an example")
} else {
  FileHandle.standardError.write(
    Data("check-doc-coverage: \(Set(missing).count) problems: public symbols without documentation:\n".utf8))
  for entry in Set(missing).sorted() { FileHandle.standardError.write(Data("  \(entry)\n".utf8)) }
  exit(1)
}
