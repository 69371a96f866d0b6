// Guarantee 9 in every build configuration.
//
// The standard library's `precondition(_:_:)` and `preconditionFailure(_:)` print their message only in debug
// builds: in an optimised build the program still stops, but without saying why. AsyncSignals promises a message
// naming the operator and the argument, so this module declares its own two functions of the same names, which
// shadow the standard library's for every call in the module: they check in every configuration and always
// print the message, through `fatalError`.

/// Stops the program with `message` unless `condition` holds, in debug and optimised builds alike.
@inlinable
@inline(__always)
package func precondition(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = String(),
  file: StaticString = #file, line: UInt = #line
) {
  if !condition() { fatalError(message(), file: file, line: line) }
}

/// Stops the program with `message`, in debug and optimised builds alike.
@inlinable
@inline(__always)
package func preconditionFailure(
  _ message: @autoclosure () -> String = String(), file: StaticString = #file, line: UInt = #line
) -> Never {
  fatalError(message(), file: file, line: line)
}
