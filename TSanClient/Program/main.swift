// TSanClientBare: the same program as TSanClient without AsyncSignalsTSanSupport, as a client that has not added the
// product runs it: what `Scripts/tsan-client.sh --bare` measures the toolchain's false report with.
import Foundation
import TSanClientWorkload

exit(await runClient(name: "TSanClientBare", arguments: Array(CommandLine.arguments.dropFirst())))
