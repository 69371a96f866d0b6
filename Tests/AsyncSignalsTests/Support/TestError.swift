/// The failure used by tests.
struct TestError: Error, Equatable, CustomStringConvertible {
  var code: Int = 0
  var description: String { "TestError(\(code))" }
}
