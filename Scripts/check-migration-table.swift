// Fails when the migration article lacks a row for an entry of the RAC 2.5 API listing.
//
// Usage: swift Scripts/check-migration-table.swift <RAC-API.md> [Docs.docc/Articles/MigratingFromRAC.md] [--list]
//
// RAC-API.md (kept with the project's shared notes, next to the package: ../shared/RAC-API.md) lists the public
// API of ReactiveCocoa 2.5's signal core, one header per `## ` section. The migration article has a `### `
// section per header, named by the same first word (`### RACSignal+Operations.h` for
// `## RACSignal+Operations.h`), holding a table whose first column names RAC's API in backticks.
//
// Entries of a section are read from its API lines: the bullets (`- `…), the lines that declare constants,
// types, protocols, classes and unavailable members, and the protocols a heading says a class conforms to. In a
// bullet, the entries are the backticked names before its description (`-take:(NSUInteger)n` in
// "- `-take:(NSUInteger)n`: the first n values"); in the lists (constants, supporting types, collection
// bridges, the objc-only extensions) every name. Argument types and parameter names are stripped
// (`-take:(NSUInteger)n` is `-take:`), `@property x` is `x`, `X = 1` is `X`. Each entry must appear, in
// backticks, in the first column of a row of the article's section of the same name; a row may name several
// entries that share one answer. `--list` prints the entries and the rows that cover them.
import Foundation

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("check-migration-table: \(message)\n".utf8))
  exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let listing = arguments.contains("--list")
arguments.removeAll { $0 == "--list" }
guard let apiPath = arguments.first else {
  fail("usage: check-migration-table <RAC-API.md> [MigratingFromRAC.md] [--list]")
}
let articlePath = arguments.count > 1 ? arguments[1] : "Docs.docc/Articles/MigratingFromRAC.md"

func read(_ path: String) -> String {
  guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
    fail("cannot read \(path)")
  }
  return text
}

/// The backticked spans of `text`, in order.
func spans(_ text: Substring) -> [String] {
  var result: [String] = []
  var current: String?
  for character in text {
    if character == "`" {
      if let span = current { result.append(span) }
      current = current == nil ? "" : nil
    } else if current != nil {
      current!.append(character)
    }
  }
  return result
}

/// A selector without argument types and parameter names; other names trimmed to the API they name.
func normalised(_ span: String) -> String {
  var text = span.trimmingCharacters(in: .whitespaces)
  if text.hasPrefix("typedef "), let start = text.range(of: "(^"),
    let end = text[start.upperBound...].firstIndex(of: ")")
  {
    return String(text[start.upperBound..<end])  // typedef … (^RACStreamBindBlock)(…)
  }
  if let equals = text.range(of: " = ") { text = String(text[..<equals.lowerBound]) }  // X = 1
  if text.hasPrefix("@property ") { text = String(text.dropFirst("@property ".count)) }
  guard text.hasPrefix("+") || text.hasPrefix("-") else { return text }
  // -after:(NSDate *)schedule: → -after:schedule: ; -take:(NSUInteger)n → -take:
  var result = ""
  var depth = 0
  var index = text.startIndex
  while index < text.endIndex {
    let character = text[index]
    if character == "(" {
      depth += 1
    } else if character == ")" {
      depth -= 1
      if depth == 0 {
        // Skip the parameter name after the type, unless it is the next part of the selector (`name:`).
        var end = text.index(after: index)
        while end < text.endIndex, text[end].isLetter || text[end].isNumber || text[end] == "_" {
          end = text.index(after: end)
        }
        if end < text.endIndex, text[end] == ":" {
          index = text.index(after: index)
          continue
        }
        index = end
        continue
      }
    } else if depth == 0 {
      result.append(character)
    }
    index = text.index(after: index)
  }
  if result.hasSuffix("...") { result.removeLast(3) }  // -setNameWithFormat:...
  return result.trimmingCharacters(in: .whitespaces)
}

/// The first word of a section heading: `RACSignal+Operations.h` for "RACSignal+Operations.h (…)".
func sectionKey(_ heading: Substring) -> String {
  let word = heading.split(separator: " ").first.map(String.init) ?? ""
  return word.hasSuffix(".h") ? String(word.dropLast(2)) : word
}

// MARK: Entries of RAC-API.md

var entries: [(section: String, name: String)] = []
var section: String?

/// The part of a bullet before its description: up to the first ": " outside backticks.
func head(_ body: Substring) -> Substring {
  var inside = false
  var index = body.startIndex
  while index < body.endIndex {
    let character = body[index]
    if character == "`" { inside.toggle() }
    if !inside, character == ":", body.index(after: index) < body.endIndex, body[body.index(after: index)] == " " {
      return body[..<index]
    }
    index = body.index(after: index)
  }
  return body
}

func add(_ names: [String], to section: String) {
  for name in names.map(normalised) where !name.isEmpty {
    if !entries.contains(where: { $0.section == section && $0.name == name }) { entries.append((section, name)) }
  }
}

for line in read(apiPath).split(separator: "\n", omittingEmptySubsequences: false) {
  if line.hasPrefix("## ") {
    let key = sectionKey(line.dropFirst(3))
    section = key
    // Protocols a class conforms to, stated in its heading: "(…; conforms to NSCoding, NSCopying, …)".
    if let range = line.range(of: "conforms to ") {
      let list = line[range.upperBound...].prefix { $0 != ")" }
      add(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }, to: key)
    }
    continue
  }
  guard let section, !line.isEmpty else { continue }
  if line.hasPrefix("- ") {
    let body = line.dropFirst(2)
    if section == "Supporting" || body.hasPrefix("Collection bridges") || body.hasPrefix("The RACStream primitives")
      || body.hasPrefix("Macros")
    {
      add(spans(body), to: section)  // a list of API names
    } else if body.hasPrefix("(") {
      add(Array(spans(body).prefix(1)), to: section)  // "(`-initWithSourceSignal:subject:` is private; use …)"
    } else if body.hasPrefix("Equality and hash") {
      add(["-isEqual:", "-hash", "NSCopying"], to: section)  // RACEvent's equality, spelled without backticks
    } else if body.hasPrefix("`") || body.hasPrefix("[post-2.5] `") {
      add(spans(head(body)), to: section)
    }
  } else if line.hasPrefix("`typedef") || line.hasPrefix("Protocol `") || line.hasPrefix("`RACSubscriber` class")
    || line.hasPrefix("Internal: `")
  {
    add(Array(spans(line).prefix(1)), to: section)
  } else if line.hasPrefix("Constants:") || line.hasPrefix("Types:") || line.hasPrefix("`RACSchedulerRecursiveBlock") {
    add(spans(line), to: section)
  } else if line.hasPrefix("Unavailable:") || line.hasPrefix("`+commandWithCanExecuteSignal:")
    || line.hasPrefix("`-addSignalBlock:")
  {
    add(spans(line).filter { $0 != "enabled" }, to: section)  // "(use `enabled`)" names the replacement
  } else if section == "Out" {
    var names = spans(line)
    for word in [
      "RACChannel", "RACKVOChannel", "RACObserve", "RACSubscriptingAssignmentTrampoline", "RACDelegateProxy",
      "NSNotificationCenter", "NSURLConnection", "NSUserDefaults", "NSData", "NSFileHandle", "NSString", "UIKit",
      "AppKit", "MapKit",
    ] where line.contains(word) {
      names.append(word)
    }
    add(names, to: section)
  }
}
guard !entries.isEmpty else { fail("no entries found in \(apiPath)") }

// MARK: Rows of the article

var rows: [String: [(names: Set<String>, line: Int)]] = [:]
var rowCount = 0
var articleSection: String?
for (number, line) in read(articlePath).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
  if line.hasPrefix("### ") {
    articleSection = sectionKey(line.dropFirst(4))
    continue
  }
  if line.hasPrefix("## ") { articleSection = nil }
  guard let articleSection, line.hasPrefix("|"), !line.hasPrefix("| ---"), !line.hasPrefix("|---") else { continue }
  let cells = line.split(separator: "|", omittingEmptySubsequences: false)
  guard cells.count > 2 else { continue }
  let names = Set(spans(cells[1]).map(normalised))
  guard !names.isEmpty else { continue }  // the header row
  rows[articleSection, default: []].append((names, number + 1))
  rowCount += 1
}

var missing: [(section: String, name: String)] = []
for entry in entries {
  let covering = rows[entry.section, default: []].first { $0.names.contains(entry.name) }
  if listing {
    print("\(entry.section)\t\(entry.name)\t\(covering.map { "line \($0.line)" } ?? "MISSING")")
  }
  if covering == nil { missing.append(entry) }
}

if missing.isEmpty {
  print("check-migration-table: all \(entries.count) entries of \(apiPath) have a row (\(rowCount) rows)")
} else {
  FileHandle.standardError.write(
    Data("check-migration-table: \(missing.count) of \(entries.count) entries have no row in \(articlePath):\n".utf8))
  for entry in missing { FileHandle.standardError.write(Data("  \(entry.section): `\(entry.name)`\n".utf8)) }
  exit(1)
}
