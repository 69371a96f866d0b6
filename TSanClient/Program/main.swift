// TSanClient: AsyncSignals used as a client uses it (TSanClient/Workload), with nothing added for ThreadSanitizer:
// Scripts/tsan-client.sh builds it with `--sanitize=thread` and runs it, as a client's CI would.
import Foundation
import TSanClientWorkload

exit(await runClient(name: "TSanClient", arguments: Array(CommandLine.arguments.dropFirst())))
