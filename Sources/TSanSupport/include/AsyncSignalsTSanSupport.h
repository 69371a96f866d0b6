/// AsyncSignalsTSanSupport: silences, under ThreadSanitizer, the one false "data race" that the Swift toolchain
/// reports in programs that read signals with `for await` (or resume any `UnsafeContinuation` from another thread),
/// and nothing else.
///
/// The report names `withUnsafeContinuation(isolation:_:)`, setting up a task's next continuation, against
/// `UnsafeContinuation.resume(returning:)`, which read the previous one at the same address. The concurrency runtime
/// orders the two with atomics in code ThreadSanitizer does not see, and tells it only half: `resume` releases on
/// the task, and the executor acquires when it runs a task that had suspended; a task resumed before it had finished
/// suspending goes on at once, with no acquire. A program without AsyncSignals gets the same report
/// (`Scripts/Toolchain/ContinuationRace.swift`).
///
/// It covers unoptimised builds. In optimised ones (`-c release --sanitize=thread`) the same gap also shows as
/// `resume` storing the value against the task reading it, with the reading code as top frame: not matched here.
///
/// Add the product to the target whose binary runs under ThreadSanitizer: an executable, or a test target when the
/// tests run in an executable (Linux). Nothing is called from Swift; linking the target is the whole effect.
///
/// ```swift
/// .testTarget(
///   name: "IngestTests",
///   dependencies: [
///     "Ingest",
///     .product(name: "AsyncSignalsTSanSupport", package: "AsyncSignals"),
///   ]),
/// ```
///
/// Where ThreadSanitizer cannot see the hook (test bundles that a runner loads, as `xctest` does on macOS), give it
/// the same line from a file: `TSAN_OPTIONS=suppressions=tsan-suppressions.txt`, with the file of this folder.
///
/// - Note: No RAC counterpart: ReactiveCocoa 2.5 has no Swift concurrency to suppress a report of.
#ifndef ASYNCSIGNALS_TSAN_SUPPORT_H
#define ASYNCSIGNALS_TSAN_SUPPORT_H

/// The suppressions this product gives ThreadSanitizer, one per line: a report is suppressed only when one of its
/// two racing accesses is made by `withUnsafeContinuation` itself, that is by the code the compiler generates for
/// it, not by code of yours in its closure or after it.
///
/// For a program that has its own `__tsan_default_suppressions`: it cannot be linked with this product (two
/// definitions of one symbol), so leave the product out and append these lines to its own.
///
/// ```c
/// #include <AsyncSignalsTSanSupport.h>
/// const char *__tsan_default_suppressions(void) {
///   return "race:KnownRaceOfMine\n" ASYNCSIGNALS_TSAN_SUPPRESSIONS;
/// }
/// ```
///
/// - Note: No RAC counterpart.
#define ASYNCSIGNALS_TSAN_SUPPRESSIONS "race_top:withUnsafeContinuation\n"

/// The default suppressions that ThreadSanitizer reads as it starts: `ASYNCSIGNALS_TSAN_SUPPRESSIONS`.
///
/// Defined by this product, never called by it: ThreadSanitizer calls it once, while it initialises. Without
/// ThreadSanitizer it is an ordinary function that nothing calls.
///
/// ```sh
/// TSAN_OPTIONS=print_suppressions=1 swift run --sanitize=thread MyTool   # prints how often the line matched
/// ```
///
/// - Note: No RAC counterpart.
const char *__tsan_default_suppressions(void);

#endif
