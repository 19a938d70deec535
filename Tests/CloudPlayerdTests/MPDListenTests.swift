import Foundation
import Testing
import TestSupport

/// Where the MPD server listens, decided by the addresses bound, not by how they are written:
/// a name at every address it resolves to; one other machines can reach only with a password
/// (a name that looks local and is not, as `127.lan.test`, in a network and /etc/hosts of the
/// test's own: `unshare`); a port another user's program holds said with who holds it.
@Suite(.timeLimit(.minutes(5)), .enabled(if: StrangerAccount.available, "needs root: namespaces and a second user"))
struct MPDListenTests {
    /// A daemon with `[mpd]` as given, its command behind `prefix` (a namespace of its own); up
    /// once its log says `waitingFor`.
    private struct Daemon {
        let bus: DBusTestBus
        let process: ChildProcess
        let home: URL

        static func start(mpd: String, prefix: [String] = [], waitingFor line: String) async throws -> Daemon {
            let bus = try await DBusTestBus()
            let home = try Fixtures.shared.scratchDirectory()
            let config = home.appendingPathComponent("config.toml")
            try Data("[mpd]\n\(mpd)\n".utf8).write(to: config)
            let arguments = ["daemon", "--output", "null", "--log-level", "debug", "--config", config.path]
            let (executable, all) = prefix.isEmpty ? (BuiltProducts.cloudplayerd, arguments) : (prefix[0], Array(prefix.dropFirst()) + [BuiltProducts.cloudplayerd] + arguments)
            let process = try ChildProcess(executable, all, environment: bus.environment.merging(["XDG_CACHE_HOME": home.path, "XDG_DATA_HOME": home.path]) { $1 })
            let daemon = Daemon(bus: bus, process: process, home: home)
            let up = try await eventually(within: 60) { process.errorSoFar().contains(line) || process.hasEnded }
            guard up, !process.hasEnded else {
                await daemon.stop()
                throw TestSupportError("the daemon never said \"\(line)\": \(process.errorSoFar().suffix(2000))")
            }
            return daemon
        }

        func stop() async {
            process.signal(SIGTERM)
            _ = await process.wait()
            await bus.stop()
        }
    }

    @Test("a name that resolves to 127.0.0.1 and ::1 is listened on at both")
    func nameAtEveryAddress() async throws {
        let port = try ServerProcess.freePort()
        let prefix = try Self.ownNetwork(hosts: "127.0.0.1 localhost\n127.0.0.1 both.test\n::1 both.test\n")
        let daemon = try await Daemon.start(mpd: "listen = [\"both.test:\(port)\"]", prefix: prefix, waitingFor: "MPD: listening on both.test:\(port)")
        // In the resolver's order (::1 first, here).
        let said = daemon.process.errorSoFar().split(separator: "\n").first { $0.contains("MPD: listening on both.test:\(port)") } ?? ""
        #expect(said.contains("127.0.0.1:\(port)") && said.contains("[::1]:\(port)"), "\(said)")
        #expect(Self.listens(daemon.process.pid, on: port, in: "tcp") && Self.listens(daemon.process.pid, on: port, in: "tcp6"))
        await daemon.stop()
    }

    @Test("a name that looks local but resolves to a LAN address is not listened on without a password, and is with one")
    func reachableNameNeedsPassword() async throws {
        let port = try ServerProcess.freePort()
        let prefix = try Self.ownNetwork(hosts: "127.0.0.1 localhost\n10.200.0.1 127.lan.test\n")
        let socket = try Fixtures.shared.scratchDirectory().appendingPathComponent("run/mpd.socket").path
        let refused = try await Daemon.start(mpd: "listen = [\"127.lan.test:\(port)\", \"\(socket)\"]", prefix: prefix,
                                             waitingFor: "MPD: listening on \(socket)")
        #expect(try await eventually(within: 30) { refused.process.errorSoFar().contains("which other machines can reach") })
        #expect(refused.process.errorSoFar().contains("MPD: 127.lan.test:\(port) is 10.200.0.1:\(port), which other machines can reach: set [mpd] password to listen there"),
                "\(refused.process.errorSoFar().suffix(1500))")
        #expect(!Self.listens(refused.process.pid, on: port), "the LAN address was listened on")
        #expect(try MPDSocketClient(path: socket).greeting == "OK MPD 0.23.5", "the unix socket is served all the same")
        await refused.stop()

        let guarded = try await Daemon.start(mpd: "listen = [\"127.lan.test:\(port)\"]\npassword = \"letmein\"", prefix: prefix,
                                             waitingFor: "MPD: listening on 127.lan.test:\(port) (10.200.0.1:\(port))")
        #expect(Self.listens(guarded.process.pid, on: port))
        await guarded.stop()
    }

    @Test("a port another user's program holds: said once at warning level, with that user and the unix socket to use")
    func portTakenByAnotherUser() async throws {
        let port = try ServerProcess.freePort()
        let (uid, _) = try await StrangerAccount.ids()
        let (executable, arguments) = try await StrangerAccount.command("/usr/bin/python3", ["-c", """
            import socket, sys
            s = socket.socket(); s.bind(("127.0.0.1", \(port))); s.listen(); print("listening", flush=True)
            sys.stdin.read()
            """])
        let impostor = try ChildProcess(executable, arguments, input: .lifeline)
        #expect(try await eventually(within: 30) { impostor.outputSoFar().contains("listening") }, "\(impostor.errorSoFar())")
        let socket = try Fixtures.shared.scratchDirectory().appendingPathComponent("run/mpd.socket").path
        let daemon = try await Daemon.start(mpd: "listen = [\"127.0.0.1:\(port)\", \"\(socket)\"]", waitingFor: "MPD: listening on \(socket)")
        #expect(try await eventually(within: 30) { daemon.process.errorSoFar().contains("cannot listen on 127.0.0.1:\(port)") })
        let log = daemon.process.errorSoFar()
        let said = log.split(separator: "\n").filter { $0.contains("cannot listen on 127.0.0.1:\(port)") }
        #expect(said.count == 1 && said[0].contains("warning"), "\(said)")
        #expect(said.first?.contains("a program of another user (uid \(uid))") == true, "\(said)")
        #expect(said.first?.contains(socket) == true, "\(said)")
        #expect(try MPDSocketClient(path: socket).greeting == "OK MPD 0.23.5")
        impostor.signal(SIGKILL)
        _ = await impostor.wait()
        await daemon.stop()
    }

    /// The command prefix that runs the daemon in a network of its own — loopback and one LAN
    /// address, 10.200.0.1 (a veth pair) — with `hosts` as its /etc/hosts: nothing it does reaches
    /// the machine's network (SSDP aside, nothing here would; the rule stands for every test).
    static func ownNetwork(hosts: String) throws -> [String] {
        let file = try Fixtures.shared.scratchDirectory().appendingPathComponent("hosts")
        try Data(hosts.utf8).write(to: file)
        let setup = "ip link set lo up && ip link add v0 type veth peer name v1 && ip addr add 10.200.0.1/24 dev v0 "
            + "&& ip link set v0 up && ip link set v1 up && mount --bind \"$0\" /etc/hosts && exec \"$@\""
        return ["unshare", "--mount", "--net", "sh", "-c", setup, file.path]
    }

    /// Whether process `pid` has a TCP socket listening on `port`, in its own network's table
    /// (`tcp`, `tcp6`, or either).
    static func listens(_ pid: pid_t, on port: Int, in tables: String...) -> Bool {
        let suffix = ":" + MPDLimitsTests.hex(port)
        return (tables.isEmpty ? ["tcp", "tcp6"] : tables).contains { table in
            ProcFile.read("/proc/\(pid)/net/\(table)").split(separator: "\n").dropFirst().contains { row in
                let fields = row.split(separator: " ")
                return fields.count > 3 && fields[1].hasSuffix(suffix) && fields[3] == "0A"
            }
        }
    }
}
