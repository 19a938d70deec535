import Base
import CtlCommands

/// One program for both commands, chosen by the name it was started under: the package installs
/// `cloudplayerctl` as a link to `cloudplayerd`, so the Swift runtime, the TLS library and every
/// module are on the disk once, not twice.
@main
enum MultiCall {
    static func main() async {
        // Before any task runs: no libdispatch worker, so no once-a-second wake-up idle.
        EventLoopExecutor.install()
        let name = CommandLine.arguments.first?.split(separator: "/").last
        if name == "cloudplayerctl" {
            await CloudPlayerCtl.main()
        } else {
            // The daemon and `play` hold the sources' secrets and tokens from the start.
            ProcessGuard.holdingSecrets()
            await CloudPlayerd.main()
        }
    }
}
