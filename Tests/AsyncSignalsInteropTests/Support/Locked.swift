import Foundation

/// A test-side mutable box guarded by `NSLock`, so that tests do not depend on the library's own lock.
final class Locked<Value>: @unchecked Sendable {
  // guarded by: `lock`
  private let lock = NSLock()
  private var storage: Value

  init(_ value: Value) { storage = value }

  var value: Value {
    get { lock.withLock { storage } }
    set { lock.withLock { storage = newValue } }
  }

  @discardableResult
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.withLock { body(&storage) }
  }
}

extension Locked where Value == Int {
  @discardableResult
  func increment() -> Int {
    withLock {
      $0 += 1
      return $0
    }
  }
}

extension Locked where Value: RangeReplaceableCollection {
  func append(_ element: Value.Element) { withLock { $0.append(element) } }
}

/// The failure used by tests.
struct TestError: Error, Equatable, CustomStringConvertible {
  var code: Int = 0
  var description: String { "TestError(\(code))" }
}

/// An object whose lifetime a test watches (guarantee 8) through a weak reference.
final class Tracked: Sendable {
  init() {}
}
