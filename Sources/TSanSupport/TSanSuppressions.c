// The hook through which this product gives ThreadSanitizer its suppression (include/AsyncSignalsTSanSupport.h says
// what it suppresses and why it is the toolchain's report, not a race).
//
// ThreadSanitizer asks the program for default suppressions as it starts, by calling `__tsan_default_suppressions`.
// Its own runtime defines a weak one that returns none, and links it first, ahead of the program's objects; so a
// second weak definition here would lose to it and never be called (measured with this toolchain on Linux: the
// runtime's `return 0` was linked). The definition is therefore a strong one. The price is that a program cannot
// link two of them: a program with its own hook leaves this product out and appends ASYNCSIGNALS_TSAN_SUPPRESSIONS
// to its own, and the linker says so (a duplicate symbol) rather than silently dropping one of the two.
//
// `race_top` is matched against the top frame of each of the report's two stacks, and a name matches when it
// contains the text: so against the functions the compiler generates for `withUnsafeContinuation` and its
// continuations' set-up, not against closures passed to it (they are functions of their own, named after their
// enclosing function), nor against any code after the `await`. A race in code of the program is still reported.
//
// `no_sanitize("thread")`: the hook runs while ThreadSanitizer initialises, before instrumented code may run.
// `used` keeps it when nothing in the program refers to it; in a build without ThreadSanitizer it is an unused
// function. In C, not Swift: Swift cannot leave one function uninstrumented.

#include "AsyncSignalsTSanSupport.h"

__attribute__((no_sanitize("thread"), used, visibility("default")))
const char *__tsan_default_suppressions(void) {
  return ASYNCSIGNALS_TSAN_SUPPRESSIONS;
}
