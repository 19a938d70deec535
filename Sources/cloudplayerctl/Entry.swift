import CtlCommands

/// The development build's `cloudplayerctl`; the package ships `cloudplayerd` under this name.
@main
enum Entry {
    static func main() async {
        await CloudPlayerCtl.main()
    }
}
