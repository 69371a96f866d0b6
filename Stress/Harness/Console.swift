#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where the run writes: standard output and error by default; tests collect the text instead.
struct Console: Sendable {
  enum Stream: Sendable { case output, error }

  let write: @Sendable (_ line: String, _ stream: Stream) -> Void

  /// Lines go out as they are written, unbuffered, even into a pipe (CI logs show progress as it happens).
  static let standard = Console { line, stream in
    writeLine(line, to: stream == .output ? STDOUT_FILENO : STDERR_FILENO)
  }

  func say(_ line: String) { write(line, .output) }

  func warn(_ line: String) { write(line, .error) }
}

/// Writes `line` and a newline straight to the file descriptor.
private func writeLine(_ line: String, to descriptor: Int32) {
  let bytes = Array((line + "\n").utf8)
  var written = 0
  while written < bytes.count {
    let result = bytes.withUnsafeBytes { buffer in
      write(descriptor, buffer.baseAddress! + written, bytes.count - written)
    }
    guard result > 0 else { return }
    written += result
  }
}
