import Foundation

// Debugging names (RAC's `-setNameWithFormat:` and its `RAC_DEBUG_SIGNAL_NAMES` switch).
//
// A name given with `named(_:)` is always kept. Operators name the signals they make only when the
// environment variable `RAC_DEBUG_SIGNAL_NAMES` is set when the process first makes such a name (it is read
// once); even then they store a closure, and the string — `[upstream] operator(arguments)` — is built only
// when someone reads `name` or `description`. With the switch off, an operator stores `.none`: no string
// work, no closure, nothing on the path events travel.

/// Where a signal's debugging name comes from.
@usableFromInline
enum SignalName: Sendable {
  /// No name.
  case none
  /// A name given with `named(_:)`.
  case given(String)
  /// A name an operator derives from its upstream, built when read.
  case derived(@Sendable () -> String)

  @usableFromInline
  var resolved: String {
    switch self {
    case .none: return ""
    case .given(let name): return name
    case .derived(let makeName): return makeName()
    }
  }
}

/// The `RAC_DEBUG_SIGNAL_NAMES` switch, read once.
@usableFromInline
enum DebugSignalNames {
  /// Whether operators name the signals they make.
  @usableFromInline
  static let isEnabled: Bool = ProcessInfo.processInfo.environment["RAC_DEBUG_SIGNAL_NAMES"] != nil
}

extension Signal {
  /// The name of a signal that an operator makes from this one: `[upstream] operation`, where `upstream` is
  /// this signal's ``description``. `.none` unless `RAC_DEBUG_SIGNAL_NAMES` is set; even then `operation`
  /// is evaluated only when the name is read.
  ///
  /// - Parameter operation: The operator and its arguments, such as `take(3)`.
  @usableFromInline
  func derivedName(_ operation: @autoclosure @escaping @Sendable () -> String) -> SignalName {
    guard DebugSignalNames.isEnabled else { return .none }
    return .derived { "[\(self.description)] \(operation())" }
  }
}
