// Fails when a public symbol of a module lacks documentation.
//
// Usage: swift Scripts/check-doc-coverage.swift <symbol-graph.json> <documentation-coverage.json>
//
// `docc convert --experimental-documentation-coverage` reports which pages have an abstract, but it also lists
// pages that are not ours to document: collection groups it synthesises, and default implementations that our
// types inherit from other modules' protocols (`Equatable.!=`, `SerialExecutor.isMainExecutor`). The symbol
// graph marks the latter `::SYNTHESIZED::`. A symbol fails the check if it is declared in this module, is public,
// and has no doc comment in the symbol graph or no abstract in docc's coverage report.
import Foundation

func load(_ path: String) -> Any {
  guard let data = FileManager.default.contents(atPath: path),
    let json = try? JSONSerialization.jsonObject(with: data)
  else {
    FileHandle.standardError.write(Data("check-doc-coverage: cannot read \(path)\n".utf8))
    exit(2)
  }
  return json
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: check-doc-coverage <symbols.json> <documentation-coverage.json>\n".utf8))
  exit(2)
}

let graph = load(arguments[1]) as? [String: Any] ?? [:]
let symbols = graph["symbols"] as? [[String: Any]] ?? []
var missing: [String] = []
var inheritedPaths: Set<String> = []
var declaredCount = 0
for symbol in symbols {
  let identifier = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
  let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: "/")
  if identifier.contains("::SYNTHESIZED::") {
    inheritedPaths.insert(path)
    continue
  }
  guard ["public", "open"].contains(symbol["accessLevel"] as? String ?? "") else { continue }
  declaredCount += 1
  let lines = (symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
  let text = lines.compactMap { $0["text"] as? String }.joined().trimmingCharacters(in: .whitespacesAndNewlines)
  if text.isEmpty { missing.append("\(path) (no doc comment)") }
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

let coverage = load(arguments[2]) as? [[String: Any]] ?? []
for page in coverage {
  let kind = page["kind"] as? [String: Any] ?? [:]
  guard kind["isSymbol"] as? Bool == true, page["hasAbstract"] as? Bool == false else { continue }
  let path = normalised(page["referencePath"] as? String ?? "")
  if inheritedPaths.contains(path) { continue }
  missing.append("\(path) (no abstract)")
}

if missing.isEmpty {
  print("check-doc-coverage: all \(declaredCount) public symbols are documented")
} else {
  FileHandle.standardError.write(Data("check-doc-coverage: \(missing.count) public symbols lack documentation:\n".utf8))
  for entry in Set(missing).sorted() { FileHandle.standardError.write(Data("  \(entry)\n".utf8)) }
  exit(1)
}
