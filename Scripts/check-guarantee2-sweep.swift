// Fails when a public declaration that returns a signal has no row in the guarantee 2 sweep.
//
// Usage: swift Scripts/check-guarantee2-sweep.swift <symbol-graph-dir>
//
// <symbol-graph-dir> holds the symbol graphs of both library modules and their extension graphs, as
// Scripts/build-docs.sh emits them (`AsyncSignals.symbols.json`, `AsyncSignalsInterop@AsyncSignals.symbols.json`, …).
// A declaration returns a signal when it is a method, a static method or a function whose result (the `->` outside
// its parameter list, in the declaration fragments) is `Signal` or a subclass of it (`Subject`, `ReplaySubject`,
// `BehaviorSubject`, `GroupedSignal`), a property of such a type, or an initialiser of such a type. Left out: what
// the symbol graph marks `::SYNTHESIZED::` (a protocol's default implementation listed again under a conforming type:
// the declaration itself is checked) and what is unconditionally unavailable (it cannot be called).
//
// The rows are read out of the sweep's files — AsyncSignals' declarations out of
// Tests/AsyncSignalsTests/Core/Guarantee2Sweep*.swift, AsyncSignalsInterop's out of
// Tests/AsyncSignalsInteropTests/Guarantee2Sweep*.swift: the first string of each `.row(`, `.failingRow(` or
// `.silentRow(` call, and its `overload:` string if it has one. A row's name is the declaration's name as the symbol
// graph gives it (`takeLast(_:file:line:)`), with `static ` before a static member and `Type.` before a member of a
// type other than `Signal` (`Command.execute(_:)`, `Subject.init()`). Where a name has several overloads, each row
// of that name says which one it runs with `overload:`, a piece of text found in that declaration alone, and every
// overload needs a row. A row that names no declaration fails the check too.
import Foundation

func fail(_ message: String, status: Int32 = 2) -> Never {
  FileHandle.standardError.write(Data("check-guarantee2-sweep: \(message)\n".utf8))
  exit(status)
}

func load(_ path: String) -> [String: Any] {
  guard let data = FileManager.default.contents(atPath: path),
    let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
  else { fail("cannot read \(path)") }
  return json
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else { fail("usage: check-guarantee2-sweep <symbol-graph-dir>") }
let graphDirectory = arguments[1]
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path

/// The modules checked, and the sweep files whose rows cover each.
let modules: [(name: String, testDirectory: String)] = [
  ("AsyncSignals", "Tests/AsyncSignalsTests/Core"),
  ("AsyncSignalsInterop", "Tests/AsyncSignalsInteropTests"),
]

let signalIdentifier = "s:12AsyncSignals6SignalC"

/// One public declaration that returns a signal.
struct Declaration {
  let key: String
  let declaration: String
}

let graphFiles = ((try? FileManager.default.contentsOfDirectory(atPath: graphDirectory)) ?? [])
  .filter { $0.hasSuffix(".symbols.json") }.sorted()
guard !graphFiles.isEmpty else { fail("no symbol graphs in \(graphDirectory)") }
let graphs = graphFiles.map { (file: $0, graph: load("\(graphDirectory)/\($0)")) }

// The signal types: `Signal` and its subclasses, from every graph's `inheritsFrom` relationships.
var signalTypes: Set<String> = [signalIdentifier]
var superclasses: [String: String] = [:]
for (_, graph) in graphs {
  for relationship in graph["relationships"] as? [[String: Any]] ?? []
  where relationship["kind"] as? String == "inheritsFrom" {
    if let source = relationship["source"] as? String, let target = relationship["target"] as? String {
      superclasses[source] = target
    }
  }
}
for type in superclasses.keys {
  var ancestor: String? = type
  while let current = ancestor, current != signalIdentifier { ancestor = superclasses[current] }
  if ancestor == signalIdentifier { signalTypes.insert(type) }
}

/// The first type named in `fragments` after the one at `start`, if it is a signal type.
func namesSignalType(_ fragments: [[String: Any]], after start: Int) -> Bool {
  for fragment in fragments[(start + 1)...] where fragment["kind"] as? String == "typeIdentifier" {
    return signalTypes.contains(fragment["preciseIdentifier"] as? String ?? "")
  }
  return false
}

/// Whether the function whose fragments these are returns a signal type: its `->` outside every parenthesis is
/// followed by one (a closure parameter's `->` is inside the parameter list's).
func returnsSignal(_ fragments: [[String: Any]]) -> Bool {
  var depth = 0
  for (index, fragment) in fragments.enumerated() where fragment["kind"] as? String == "text" {
    let text = fragment["spelling"] as? String ?? ""
    var characters = text.startIndex
    while characters < text.endIndex {
      let character = text[characters]
      if character == "(" { depth += 1 }
      if character == ")" { depth -= 1 }
      if depth == 0, text[characters...].hasPrefix("->") { return namesSignalType(fragments, after: index) }
      characters = text.index(after: characters)
    }
  }
  return false
}

/// Whether the property whose fragments these are has a signal type: the first type after its `:`.
func hasSignalType(_ fragments: [[String: Any]]) -> Bool {
  guard
    let colon = fragments.firstIndex(where: {
      $0["kind"] as? String == "text" && ($0["spelling"] as? String ?? "").contains(":")
    })
  else { return false }
  return namesSignalType(fragments, after: colon)
}

var declarations: [String: [Declaration]] = [:]  // by module
for (file, graph) in graphs {
  let module = String(file.dropLast(".symbols.json".count).split(separator: "@")[0])
  var parents: [String: String] = [:]  // a member's type, by the member's identifier
  for relationship in graph["relationships"] as? [[String: Any]] ?? []
  where relationship["kind"] as? String == "memberOf" {
    if let source = relationship["source"] as? String, let target = relationship["target"] as? String {
      parents[source] = target
    }
  }
  for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
    let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
    guard !identifier.contains("::SYNTHESIZED::") else { continue }
    let availability = symbol["availability"] as? [[String: Any]] ?? []
    guard !availability.contains(where: { $0["isUnconditionallyUnavailable"] as? Bool == true }) else { continue }
    let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? ""
    let fragments = symbol["declarationFragments"] as? [[String: Any]] ?? []
    let returnsASignal: Bool
    switch kind {
    case "swift.method", "swift.type.method", "swift.func": returnsASignal = returnsSignal(fragments)
    case "swift.property", "swift.type.property": returnsASignal = hasSignalType(fragments)
    case "swift.init": returnsASignal = signalTypes.contains(parents[identifier] ?? "")
    default: returnsASignal = false
    }
    guard returnsASignal else { continue }
    let path = symbol["pathComponents"] as? [String] ?? []
    let type = path.dropLast().joined(separator: ".")
    let title = (symbol["names"] as? [String: Any])?["title"] as? String ?? path.last ?? ""
    let key =
      (kind.hasPrefix("swift.type.") ? "static " : "") + (type == "Signal" || type.isEmpty ? "" : "\(type).")
      + title
    let text = fragments.map { $0["spelling"] as? String ?? "" }.joined()
    declarations[module, default: []].append(Declaration(key: key, declaration: text))
  }
}

/// A row of the sweep: its name, its `overload:` if any, and where it is.
struct Row {
  let key: String
  let overload: String?
  let location: String
}

let rowPattern = try! NSRegularExpression(
  pattern: #"\.(?:row|failingRow|silentRow)\(\s*"([^"]+)"(?:\s*,\s*overload:\s*"([^"]*)")?"#)

func rows(in directory: String) -> [Row] {
  let files = ((try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(directory)")) ?? [])
    .filter { $0.hasPrefix("Guarantee2Sweep") && $0.hasSuffix(".swift") }.sorted()
  var rows: [Row] = []
  for file in files {
    guard let text = try? String(contentsOfFile: "\(root)/\(directory)/\(file)", encoding: .utf8) else {
      fail("cannot read \(directory)/\(file)")
    }
    let source = text as NSString
    for match in rowPattern.matches(in: text, range: NSRange(location: 0, length: source.length)) {
      let line = source.substring(to: match.range.location).split(separator: "\n", omittingEmptySubsequences: false)
        .count
      let overload = match.range(at: 2).location == NSNotFound ? nil : source.substring(with: match.range(at: 2))
      rows.append(
        Row(
          key: source.substring(with: match.range(at: 1)), overload: overload, location: "\(directory)/\(file):\(line)")
      )
    }
  }
  return rows
}

var problems: [String] = []
var summary: [String] = []
for (module, testDirectory) in modules {
  let found = declarations[module] ?? []
  guard !found.isEmpty else { fail("no declaration of \(module) returning a signal in \(graphDirectory)") }
  let moduleRows = rows(in: testDirectory)
  guard !moduleRows.isEmpty else { fail("no rows in \(testDirectory)/Guarantee2Sweep*.swift") }
  let overloadsByKey = Dictionary(grouping: found, by: \.key)
  let rowsByKey = Dictionary(grouping: moduleRows, by: \.key)
  for (key, overloads) in overloadsByKey.sorted(by: { $0.key < $1.key }) {
    let keyRows = rowsByKey[key] ?? []
    if keyRows.isEmpty {
      for overload in overloads {
        problems.append("\(module): no row for `\(key)`: \(overload.declaration)")
      }
      continue
    }
    var covered = Set<Int>()
    for row in keyRows {
      guard let overload = row.overload else {
        if overloads.count == 1 {
          covered.insert(0)
        } else {
          problems.append(
            "\(row.location): `\(key)` has \(overloads.count) overloads: say which one the row runs with `overload:`")
        }
        continue
      }
      let matching = overloads.indices.filter { overloads[$0].declaration.contains(overload) }
      if matching.count == 1 {
        covered.insert(matching[0])
      } else {
        problems.append(
          "\(row.location): the overload \"\(overload)\" of `\(key)` matches \(matching.count) declarations, not one")
      }
    }
    for index in overloads.indices where !covered.contains(index) {
      problems.append("\(module): no row for this overload of `\(key)`: \(overloads[index].declaration)")
    }
  }
  for row in moduleRows where overloadsByKey[row.key] == nil {
    problems.append("\(row.location): the row `\(row.key)` names no public declaration of \(module) returning a signal")
  }
  summary.append("\(module): \(found.count) declarations, \(moduleRows.count) rows")
}

if !problems.isEmpty {
  FileHandle.standardError.write(
    Data(
      """
      check-guarantee2-sweep: every public declaration that returns a signal needs a row in the guarantee 2 sweep
      (see Tests/AsyncSignalsTests/Support/Guarantee2Sweep.swift):
      \(problems.map { "  \($0)" }.joined(separator: "\n"))

      """.utf8))
  exit(1)
}
print(
  "check-guarantee2-sweep: every public declaration returning a signal has a row (\(summary.joined(separator: "; ")))")
