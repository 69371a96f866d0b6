// TSanClient: AsyncSignals used as a client uses it (TSanClient/Workload), linked with AsyncSignalsTSanSupport as the
// README's recipe says. Nothing here calls it: the dependency in Package.swift is the whole of it.
// Scripts/tsan-client.sh builds it with ThreadSanitizer and runs it.
import Foundation
import TSanClientWorkload

exit(await runClient(name: "TSanClient", arguments: Array(CommandLine.arguments.dropFirst())))
