// One import for the whole API: `import AsyncSignalsInterop` brings `Signal`, the operators, subjects, schedulers
// and disposables along with the structured-concurrency bridges, so that a file using both needs one line.
// `import AsyncSignals` alone still gives the core without the bridges.
//
// Except in the documentation build (Scripts/build-docs.sh defines ASYNCSIGNALS_DOCS): a re-exported module's
// symbols are emitted into the re-exporting module's symbol graph, which would document the whole core a second
// time under AsyncSignalsInterop and turn what Interop adds to `Signal` into members of a copy of it. With a
// plain import, those additions stay extensions of AsyncSignals' `Signal`, as the catalogs link them.
#if ASYNCSIGNALS_DOCS
import AsyncSignals
#else
@_exported import AsyncSignals
#endif
