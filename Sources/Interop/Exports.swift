// One import for the whole API: `import AsyncSignalsInterop` brings `Signal`, the operators, subjects, schedulers
// and disposables along with the structured-concurrency bridges, so that a file using both needs one line.
// `import AsyncSignals` alone still gives the core without the bridges.
@_exported import AsyncSignals
