import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// The busy neighbour of the busy pass: one `sh -c 'while :; do :; done'`, a process of its own (a thread of this
// process would count in its CPU time and context switches), unpinned and at the default priority, as another
// program on the machine would be. Started before the busy pass and killed after it.
//
// So that a benchmark that dies during the busy pass does not leave it spinning, the neighbour is killed from a
// signal handler too: on SIGINT, SIGTERM, SIGHUP and SIGABRT, and on the faults a Swift trap raises (the handler then
// gives the signal back to the action that was there before, such as the runtime's backtracer). Only a SIGKILL of
// this process leaves it behind: the pass prints its pid.

/// The neighbour's pid while it runs, 0 otherwise: read by the signal handler.
private let neighbour = Atomic<Int32>(0)

/// The signals whose handler kills the neighbour, and the actions they had before.
private let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE]
private let previousActions = PreviousActions()

/// The actions the signals had before `installHandlers()`, for the handler to restore.
private final class PreviousActions: @unchecked Sendable {
  // guarded by: the order of the calls — each place is written only by the `sigaction` call of `installHandlers()`
  // that installs the handler for its signal, before the handler can run; the handler and `restoreHandlers()` only
  // read it. `actions` is a `let` pointer, allocated once and never freed.
  let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
}

/// Kills the neighbour, puts back the previous action of `signal`, and raises it again. The signal is blocked while
/// its handler runs, so the previous action runs once this one has returned, in the interrupted context (for a fault,
/// the faulting instruction's).
private func killNeighbourAndForward(_ signal: Int32) {
  let pid = neighbour.exchange(0, ordering: .relaxed)
  if pid > 0 { kill(pid, SIGKILL) }
  sigaction(signal, previousActions.actions + Int(signal), nil)
  raise(signal)
}

private func installHandlers() {
  for signal in signals {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { killNeighbourAndForward($0) }
    sigemptyset(&action.sa_mask)
    sigaction(signal, &action, previousActions.actions + Int(signal))
  }
}

private func restoreHandlers() {
  for signal in signals { sigaction(signal, previousActions.actions + Int(signal), nil) }
}

enum BusyNeighbour {
  /// Starts the neighbour; returns its pid.
  static func start() -> Int32 {
    let arguments = ["sh", "-c", "while :; do :; done"].map { (text: String) in strdup(text) }
    defer { for argument in arguments { free(argument) } }
    var pid: pid_t = 0
    let environment: [UnsafeMutablePointer<CChar>?] = [nil]  // the loop needs none
    let spawned = (arguments + [nil]).withUnsafeBufferPointer { argv in
      environment.withUnsafeBufferPointer { envp in
        posix_spawn(&pid, "/bin/sh", nil, nil, argv.baseAddress!, envp.baseAddress!)
      }
    }
    guard spawned == 0 else {
      fatalError("FlowCost: could not start the busy neighbour: \(String(cString: strerror(spawned)))")
    }
    installHandlers()
    neighbour.store(pid, ordering: .relaxed)
    return pid
  }

  /// Kills the neighbour, if it runs, and waits for it.
  static func stop() {
    let pid = neighbour.exchange(0, ordering: .relaxed)
    guard pid > 0 else { return }
    restoreHandlers()
    kill(pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
  }
}
