import Foundation

/// A real Icecast 2 (Debian's `icecast2`) on 127.0.0.1, with a config of its own in a scratch
/// folder and its logs there, stopped when the test process ends (a `ServerProcess`). Sources
/// feed it (`IcecastServer+Sources`: ffmpeg, ezstream, ices2); a test reads the mounts' state
/// from `/status-json.xsl` and sets an MP3 mount's title through the admin API, as a station's
/// playout software does.
///
/// Icecast refuses to run as root unless its config names a user to become
/// (`<security><changeowner>`): as root (CI) it becomes Debian's `icecast2` user, which then must
/// be able to write its logs, so the folder is given to it; as anyone else it runs as that user.
/// Every mount's metadata charset is UTF-8 (`<mount type="default"><charset>`): with Icecast's
/// own default, ISO-8859-1, a UTF-8 title set through the admin API went out to ICY listeners as
/// sent but showed in `status-json.xsl` as mojibake ("Ã©" for "é").
public final class IcecastServer: Sendable {
    public let port: Int
    /// The config (`icecast.xml`), `error.log`, `access.log`, and the sources' configs and logs.
    public let folder: URL
    public let sourcePassword: String
    public let adminUser = "admin"
    public let adminPassword: String
    /// Bytes a new listener gets at once from what the mount holds (Icecast's burst-on-connect).
    public let burstSize: Int
    private let process: ServerProcess

    /// `burstSize`: Icecast's default is 64 KB, 4 s of 128 kbit/s; 0 turns the burst off, and a
    /// listener gets only what the source sends from then on.
    public init(burstSize: Int = 65536) async throws {
        let folder = try Fixtures.shared.scratchDirectory()
        let sourcePassword = "src-\(UUID().uuidString.prefix(8))", adminPassword = "adm-\(UUID().uuidString.prefix(8))"
        let owner = Self.owner()
        if let owner {
            try FileManager.default.setAttributes([.ownerAccountName: owner.user, .groupOwnerAccountName: owner.group],
                                                  ofItemAtPath: folder.path)
        }
        let config = folder.appendingPathComponent("icecast.xml")
        let (ports, server) = try await ServerProcess.onOwnPorts("Icecast") { ports in
            try Self.config(port: ports[0], folder: folder, owner: owner, burstSize: burstSize, sourcePassword: sourcePassword,
                            adminPassword: adminPassword).write(to: config, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: config.path)
            return try ServerProcess("icecast2", command: #"/usr/bin/icecast2 "$@""#, arguments: ["-c", config.path])
        }
        (port, process) = (ports[0], server)
        (self.folder, self.sourcePassword, self.adminPassword, self.burstSize) = (folder, sourcePassword, adminPassword, burstSize)
    }

    /// The user and group Icecast becomes when started as root: Debian's `icecast2` and
    /// `icecast`, or `nobody` and `nogroup` where the package did not make them. Nil when not root.
    private static func owner() -> (user: String, group: String)? {
        guard getuid() == 0 else { return nil }
        return getpwnam("icecast2") != nil && getgrnam("icecast") != nil ? ("icecast2", "icecast") : ("nobody", "nogroup")
    }

    private static func config(port: Int, folder: URL, owner: (user: String, group: String)?, burstSize: Int,
                               sourcePassword: String, adminPassword: String) -> String {
        let security = owner.map { "<changeowner><user>\($0.user)</user><group>\($0.group)</group></changeowner>" } ?? ""
        return """
            <icecast>
                <location>test</location>
                <admin>test@127.0.0.1</admin>
                <hostname>127.0.0.1</hostname>
                <limits>
                    <clients>100</clients>
                    <sources>16</sources>
                    <burst-on-connect>\(burstSize > 0 ? 1 : 0)</burst-on-connect>
                    <burst-size>\(burstSize)</burst-size>
                    <source-timeout>10</source-timeout>
                    <header-timeout>15</header-timeout>
                </limits>
                <authentication>
                    <source-password>\(sourcePassword)</source-password>
                    <admin-user>admin</admin-user>
                    <admin-password>\(adminPassword)</admin-password>
                </authentication>
                <listen-socket>
                    <port>\(port)</port>
                    <bind-address>127.0.0.1</bind-address>
                </listen-socket>
                <mount type="default">
                    <charset>UTF-8</charset>
                </mount>
                <fileserve>1</fileserve>
                <paths>
                    <basedir>/usr/share/icecast2</basedir>
                    <logdir>\(folder.path)</logdir>
                    <webroot>/usr/share/icecast2/web</webroot>
                    <adminroot>/usr/share/icecast2/admin</adminroot>
                    <pidfile>\(folder.path)/icecast.pid</pidfile>
                </paths>
                <logging>
                    <accesslog>access.log</accesslog>
                    <errorlog>error.log</errorlog>
                    <loglevel>3</loglevel>
                </logging>
                <security>
                    <chroot>0</chroot>
                    \(security)
                </security>
            </icecast>
            """
    }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// A mount's URL, as a listener opens it (`mount` starts with "/").
    public func url(_ mount: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(mount)")! }

    /// What Icecast's error log (its info lines: sources in and out, metadata changes) says so far.
    public func errorLog() -> String {
        (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    /// The mounts a source feeds now, from `/status-json.xsl`.
    public func status() async throws -> [IcecastMount] {
        let answer = try await ChildProcess.check("curl", ["-sf", "-m", "10", baseURL.absoluteString + "/status-json.xsl"])
        return try IcecastMount.parse(status: answer.stdout)
    }

    /// Waits until `mount` is in the status and `condition` holds for it (a title, say), and
    /// returns it. `source`: the process that feeds it; if it ends first, so does the wait.
    /// Throws after `seconds`, a bound only a failure reaches.
    @discardableResult
    public func waitForMount(_ mount: String, within seconds: Int = 60, source: IcecastSource? = nil,
                             until condition: @Sendable (IcecastMount) -> Bool = { _ in true }) async throws -> IcecastMount {
        var last: IcecastMount?
        let reached = try await eventually(within: seconds) {
            if let source, source.hasEnded {
                throw TestSupportError("the source of \(mount) ended: \(source.log())")
            }
            // Icecast 2.4's status-json.xsl is now and then not JSON (`{"icestats":"server_start":…`,
            // its XSLT with a source half-registered): looked at again, not taken as an answer.
            guard let mounts = try? await status() else { return false }
            last = mounts.first { $0.mount == mount }
            return last.map(condition) ?? false
        }
        guard reached, let last else {
            throw TestSupportError("\(mount) did not get there in \(seconds) s (last seen: \(String(describing: last))); "
                                   + "Icecast says: \(errorLog().suffix(2000))")
        }
        return last
    }

    /// Sets an MP3 (or other non-Ogg) mount's title through the admin API, as playout software
    /// does (`/admin/metadata?mode=updinfo`); listeners get it in the ICY blocks of the audio the
    /// source sends from then on. Ogg mounts refuse: their titles are the Vorbis comments.
    public func updateTitle(_ mount: String, to song: String) async throws {
        let answer = try await ChildProcess.check("curl", [
            "-sf", "-m", "10", "-u", "\(adminUser):\(adminPassword)", "-G",
            "--data-urlencode", "mount=\(mount)", "--data-urlencode", "mode=updinfo", "--data-urlencode", "charset=UTF-8",
            "--data-urlencode", "song=\(song)", baseURL.absoluteString + "/admin/metadata",
        ])
        guard answer.stdout.contains("<return>1</return>") else {
            throw TestSupportError("Icecast refused the title of \(mount): \(answer.stdout)")
        }
    }

    /// Stops Icecast now: every listener's connection ends, as a station that goes down.
    public func stop() async {
        await process.stop()
    }
}
