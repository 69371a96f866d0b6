import Foundation

/// What the documentation samples print, so that their tests can check the output the articles state.
///
/// The samples call `print`; each file in `Docs/` shadows it with a private function that writes here instead
/// of to standard output. Their suite is serialized, so one console serves all of them: each test calls
/// ``reset()`` first. `Scripts/check-doc-samples.swift` checks that every sample of the catalogs appears,
/// line for line, in one of these files.
final class DocConsole: @unchecked Sendable {
  // guarded by: `lock` (the lines, and the tasks waiting for them).
  static let shared = DocConsole()

  private let lock = NSLock()
  private var printed: [String] = []
  private var waiters: [(count: Int, continuation: CheckedContinuation<[String], Never>)] = []

  /// Records one `print` call as one line, as `Swift.print` joins its items.
  func print(_ items: [Any], separator: String) {
    let line = items.map { "\($0)" }.joined(separator: separator)
    let ready = lock.withLock { () -> [(CheckedContinuation<[String], Never>, [String])] in
      printed.append(line)
      let (due, waiting) = (waiters.filter { $0.count <= printed.count }, waiters.filter { $0.count > printed.count })
      waiters = waiting
      return due.map { ($0.continuation, printed) }
    }
    for (continuation, lines) in ready { continuation.resume(returning: lines) }
  }

  /// The lines printed since the last ``reset()``.
  var lines: [String] {
    lock.withLock { printed }
  }

  /// Forgets the lines printed so far.
  func reset() {
    lock.withLock { printed = [] }
  }

  /// Suspends until at least `count` lines have been printed, and returns the lines: for samples whose output
  /// is delivered later, on the main queue or another thread. The suite's time limit ends a wait that never
  /// finishes.
  func lines(atLeast count: Int) async -> [String] {
    await withCheckedContinuation { continuation in
      let lines = lock.withLock { () -> [String]? in
        if printed.count >= count { return printed }
        waiters.append((count, continuation))
        return nil
      }
      if let lines { continuation.resume(returning: lines) }
    }
  }
}
