import CtlCommands

// The development build's `cloudplayerctl`; the package ships `cloudplayerd` under this name.
await CloudPlayerCtl.main()
