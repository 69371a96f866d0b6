// Stress: hammers AsyncSignals' lock-protected parts from many threads and checks their invariants.
// `swift run --sanitize=thread Stress`; `--help` for the options. The harness is in Harness/, one race per
// file in Scenarios/, and the broken twins that `--sabotage` swaps in (the self-check) in Sabotage/.
#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

exit(StressCommand.main(Array(CommandLine.arguments.dropFirst())))
