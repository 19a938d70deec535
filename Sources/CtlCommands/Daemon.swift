import ArgumentParser
import Base
import DBus
import FoundationEssentials
import Glibc
import Manager1

/// The running daemon, reached over the session bus.
struct Daemon {
    let client: BusClient
    let destination: String
    /// Which instance: where its last start error is kept.
    var instance: String?

    /// Connects to the session bus; exit 3 when there is none.
    static func connect(_ options: GlobalOptions) throws -> Daemon {
        do {
            return Daemon(client: try BusClient(), destination: Manager1.busName(instance: options.instance), instance: options.instance)
        } catch {
            fail("cannot reach the session bus (\(error)); is DBUS_SESSION_BUS_ADDRESS set?", code: 3)
        }
    }

    /// Calls a Manager1 method: its answer, typed, and the reply as it came (for `--json`). A refusal is
    /// printed on one line, exit 1 (3: not running).
    func call<each Argument, Answer>(_ method: BusMethod<repeat each Argument, Answer>,
                                     _ arguments: repeat each Argument) async throws -> (answer: Answer, raw: [BusValue]) {
        // A second of slack: the file's time and the clock's may be rounded apart.
        let asked = Date().addingTimeInterval(-1)
        do {
            return try await client.call(method, repeat each arguments, destination: destination, path: Manager1.path,
                                         interface: Manager1.interface)
        } catch let error as BusCallError {
            if ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"].contains(error.name) {
                fail("cloudplayerd is not running (start it: systemctl --user start cloudplayerd, or cloudplayerd daemon)", code: 3)
            }
            // Started by D-Bus activation, it stopped at once (dbus-daemon: Spawn.ChildExited;
            // systemd: the unit failed): its own words, if it left them, say why.
            if error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn.") || error.name.hasPrefix("org.freedesktop.systemd1.") {
                if let reason = LastStartError(instance: instance).reason(since: asked) {
                    fail("cloudplayerd could not start: \(reason)", code: 3)
                }
                fail("cloudplayerd could not start (\(error.message)); journalctl --user -u cloudplayerd says why", code: 3)
            }
            if error.name == "org.freedesktop.DBus.Error.UnknownObject" || error.name == "org.freedesktop.DBus.Error.UnknownInterface" {
                fail("the player on the bus is not a cloudplayerd daemon with a library", code: 3)
            }
            fail(error.message, code: 1)
        }
    }

    func close() async {
        await client.close()
    }

    /// One call on a connection of its own: what most commands need.
    static func call<each Argument, Answer>(_ options: GlobalOptions, _ method: BusMethod<repeat each Argument, Answer>,
                                            _ arguments: repeat each Argument) async throws -> (answer: Answer, raw: [BusValue]) {
        let daemon = try connect(options)
        let answer = try await daemon.call(method, repeat each arguments)
        await daemon.close()
        return answer
    }
}

/// Prints `message` to standard error and exits.
func fail(_ message: String, code: Int32) -> Never {
    StandardStream.error.writeLine("cloudplayerctl: \(message)")
    exit(code)
}

/// One line to standard output.
func say(_ line: String) {
    StandardStream.output.writeLine(line)
}

/// A track argument as the daemon takes it: a library id as it is, a URI (`SCHEME://…`: a URL,
/// or `cloudplayer://SOURCE/KEY`) as it is — the daemon says which schemes it opens — and
/// anything else as a path, sent as a file URL.
func trackReference(_ argument: String) -> String {
    if Int64(argument) != nil { return argument }
    if argument.contains("://"), URL(string: argument)?.scheme != nil { return argument }
    return URL(fileURLWithPath: argument).standardizedFileURL.absoluteString
}
