import Daemon
import DBus
import Foundation
import Library
import Loader
import Manager1
import Output
import Playback
import Testing
import TestSupport

/// The one description of each Manager1 call — what the daemon registers and `cloudplayerctl`
/// calls — against the introspection XML we ship, and its records as they travel.
@Suite struct Manager1DescriptionTests {
    @Test("every method and signal the daemon registers is what dbus/org.cloudplayerd.Manager1.xml documents, and nothing else")
    func matchesDocument() async throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("dbus/org.cloudplayerd.Manager1.xml")
        let documented = try IntrospectionSummary.lines(of: String(contentsOf: document, encoding: .utf8),
                                                        interfacesStartingWith: Manager1.interface)
        // The interface as Manager1Service builds it for the bus: a member described but never
        // registered, or registered twice, shows here.
        let player = Player(output: OutputActor(device: NullOutput()))
        Task { await player.run() }
        defer { Task { await player.shutdown() } }
        let service = Manager1Service(player: player, library: LibraryActor(), loader: LoaderActor()) { nil }
        let built = service.interface()
        #expect(built.name == Manager1.interface)
        let described = built.members.map { member in
            ([Manager1.interface, member.kind.rawValue, member.name]
                + member.arguments.map { "\($0.direction ?? "out"):\($0.type):\($0.name)" }).joined(separator: " ")
        }.sorted()
        #expect(documented.count == 26)
        #expect(described == documented)
    }

    @Test("a record travels as a{sv} with snake_case keys, leaves out what it does not have, and comes back the same")
    func recordsRoundTrip() throws {
        var status = Manager1.Status(status: "Playing", volume: 0.5, loop: "None", shuffle: true, queueLength: 3, scanning: false)
        status.title = "Title"
        status.position = 12.5
        let value = status.busValue
        #expect(value.signature == "a{sv}")
        #expect(value["queue_length"] == .uint32(3))
        #expect(value["position"] == .double(12.5))
        #expect(value["url"] == nil && value["library_problem"] == nil)
        #expect(Manager1.Status(busValue: value) == status)

        let report = Manager1.ScanReport(source: "dav", folders: 2, tracks: 3, tagsRead: 1, gone: 0, playlists: 1, bytes: 70_000,
                                         failed: false, problems: ["x"])
        let scan = Manager1.ScanStatus(running: false, reports: [report])
        #expect(scan.busValue["reports"]?.signature == "aa{sv}")
        #expect(scan.busValue["reports"]?.elements.first?["tags_read"] == .uint32(1))
        #expect(Manager1.ScanStatus(busValue: scan.busValue) == scan)
        // A record of another shape is not taken for this one.
        #expect(Manager1.Status(busValue: report.busValue) == nil)
    }

    @Test("typed arguments travel as the signature says, and only a matching list decodes")
    func typedArguments() {
        let values = Manager1.listTracks.encode("A", "", "", "dav", 0, 200)
        #expect(values.map(\.signature).joined() == Manager1.listTracks.argumentSignature)
        #expect(Manager1.listTracks.argumentSignature == "ssssuu")
        #expect(Manager1.queueAdd.decode([["1"].busValue, .bool(true)]).map { $0.1 } == true)
        #expect(Manager1.queueAdd.decode([["1"].busValue]) == nil)
        #expect(Manager1.queueAdd.decode([["1"].busValue, .uint32(1)]) == nil)
    }
}
