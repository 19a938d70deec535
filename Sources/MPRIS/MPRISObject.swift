import CSDBusShim
import CSystemd
import DBus
import Foundation
import Model

/// The `/org/mpris/MediaPlayer2` object: the vtables of the MPRIS root and player interfaces,
/// whose C callbacks answer property reads from the `MPRISModel` and turn method calls into
/// player commands. Lives on the bus thread (sd-bus calls every callback there).
package final class MPRISObject: @unchecked Sendable {
    static let path = "/org/mpris/MediaPlayer2"

    let model: MPRISModel
    let connection: BusConnection
    /// Carries out a method call or property write.
    let handle: @Sendable (MPRISRequest) -> BusOutcome
    /// The vtables and their strings, kept for as long as the bus lives.
    private let vtables = BusVTableBuilder()

    init(model: MPRISModel, connection: BusConnection, handle: @escaping @Sendable (MPRISRequest) -> BusOutcome) {
        self.model = model
        self.connection = connection
        self.handle = handle
    }

    /// Adds both interfaces to `bus` (on the bus thread). Returns a negative errno on failure.
    func register(on bus: OpaquePointer) -> Int32 {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let constant = UInt64(SD_BUS_VTABLE_PROPERTY_CONST)
        let emits = UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)
        let root = makeTable([
            method("Raise"),
            method("Quit"),
        ] + ["CanQuit": "b", "CanRaise": "b", "HasTrackList": "b", "Identity": "s", "DesktopEntry": "s",
             "SupportedUriSchemes": "as", "SupportedMimeTypes": "as"].sorted(by: { $0.key < $1.key }).map {
            cp_vtable_property(c($0.key), c($0.value), mprisGet, constant)
        })
        var player = [
            method("Next"),
            method("Previous"),
            method("Pause"),
            method("PlayPause"),
            method("Stop"),
            method("Play"),
            method("Seek", "x", names: ["Offset"]),
            method("SetPosition", "ox", names: ["TrackId", "Position"]),
            method("OpenUri", "s", names: ["Uri"]),
            cp_vtable_signal(c("Seeked"), c("x"), argumentNames(["Position"]), 0),
            cp_vtable_property(c("PlaybackStatus"), c("s"), mprisGet, emits),
            cp_vtable_property(c("Metadata"), c("a{sv}"), mprisGet, emits),
            cp_vtable_property(c("Position"), c("x"), mprisGet, 0),
            cp_vtable_property(c("MinimumRate"), c("d"), mprisGet, emits),
            cp_vtable_property(c("MaximumRate"), c("d"), mprisGet, emits),
            cp_vtable_property(c("CanControl"), c("b"), mprisGet, constant),
        ]
        for name in ["CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek"] {
            player.append(cp_vtable_property(c(name), c("b"), mprisGet, emits))
        }
        player.append(cp_vtable_writable_property(c("Volume"), c("d"), mprisGet, mprisSet, emits))
        player.append(cp_vtable_writable_property(c("Rate"), c("d"), mprisGet, mprisSet, emits))
        player.append(cp_vtable_writable_property(c("LoopStatus"), c("s"), mprisGet, mprisSet, emits))
        player.append(cp_vtable_writable_property(c("Shuffle"), c("b"), mprisGet, mprisSet, emits))
        let playerTable = makeTable(player)
        let trackList = makeTable([
            method("GetTracksMetadata", "ao", result: "aa{sv}", names: ["TrackIds", "Metadata"]),
            method("AddTrack", "sob", names: ["Uri", "AfterTrack", "SetAsCurrent"]),
            method("RemoveTrack", "o", names: ["TrackId"]),
            method("GoTo", "o", names: ["TrackId"]),
            cp_vtable_signal(c("TrackListReplaced"), c("aoo"), argumentNames(["Tracks", "CurrentTrack"]), 0),
            cp_vtable_signal(c("TrackAdded"), c("a{sv}o"), argumentNames(["Metadata", "AfterTrack"]), 0),
            cp_vtable_signal(c("TrackRemoved"), c("o"), argumentNames(["TrackId"]), 0),
            cp_vtable_signal(c("TrackMetadataChanged"), c("oa{sv}"), argumentNames(["TrackId", "Metadata"]), 0),
            cp_vtable_property(c("Tracks"), c("ao"), mprisGet, UInt64(SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION)),
            cp_vtable_property(c("CanEditTracks"), c("b"), mprisGet, constant),
        ])
        let playlists = makeTable([
            method("ActivatePlaylist", "o", names: ["PlaylistId"]),
            method("GetPlaylists", "uusb", result: "a(oss)", names: ["Index", "MaxCount", "Order", "ReverseOrder", "Playlists"]),
            cp_vtable_signal(c("PlaylistChanged"), c("(oss)"), argumentNames(["Playlist"]), 0),
            cp_vtable_property(c("PlaylistCount"), c("u"), mprisGet, emits),
            cp_vtable_property(c("Orderings"), c("as"), mprisGet, emits),
            cp_vtable_property(c("ActivePlaylist"), c("(b(oss))"), mprisGet, emits),
        ])
        var status: Int32 = 0
        for (interface, table) in [(MPRISModel.rootInterface, root), (MPRISModel.playerInterface, playerTable),
                                   (MPRISModel.trackListInterface, trackList),
                                   (MPRISModel.playlistsInterface, playlists)] where status >= 0 {
            status = sd_bus_add_object_vtable(bus, nil, Self.path, interface, table, me)
        }
        return status
    }

    /// Emits PropertiesChanged for `names` of `interface` (on the bus thread).
    func emitChanged(on bus: OpaquePointer, interface: String, names: [String]) {
        var pointers = names.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        _ = sd_bus_emit_properties_changed_strv(bus, Self.path, interface, &pointers)
    }

    /// Emits a signal of this object (on the bus thread).
    func emit(on bus: OpaquePointer, interface: String, signal member: String, _ arguments: [BusValue]) {
        BusSignal.emit(on: bus, path: Self.path, interface: interface, member: member, arguments)
    }

    private func method(_ name: String, _ signature: String = "", result: String = "", names: [String] = []) -> sd_bus_vtable {
        vtables.method(name, signature, result: result, names: names, handler: mprisMethod)
    }

    private func c(_ text: String) -> UnsafePointer<CChar> {
        vtables.text(text)
    }

    private func argumentNames(_ names: [String]) -> UnsafePointer<CChar> {
        vtables.argumentNames(names)
    }

    private func makeTable(_ entries: [sd_bus_vtable]) -> UnsafeMutablePointer<sd_bus_vtable> {
        vtables.table(entries)
    }
}

/// A method call or property write, decoded from its message.
package enum MPRISRequest: Sendable {
    case raise, quit, next, previous, pause, playPause, stop, play
    case seek(microseconds: Int64)
    case setPosition(trackID: String, microseconds: Int64)
    case openURI(String)
    case setVolume(Double)
    case setRate(Double)
    case setLoopStatus(String)
    case setShuffle(Bool)
    case getTracksMetadata([String])
    case addTrack(uri: String, after: String, setAsCurrent: Bool)
    case removeTrack(String)
    case goTo(String)
    case activatePlaylist(String)
    case getPlaylists(index: UInt32, maxCount: UInt32, order: String, reverse: Bool)
}

private func mprisObject(_ userdata: UnsafeMutableRawPointer?) -> MPRISObject {
    Unmanaged<MPRISObject>.fromOpaque(userdata!).takeUnretainedValue()
}

private func mprisGet(_ bus: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ interface: UnsafePointer<CChar>?,
                      _ property: UnsafePointer<CChar>?, _ reply: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                      _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    let object = mprisObject(userdata)
    guard let value = object.model.value(String(cString: interface!), String(cString: property!)) else { return -EINVAL }
    return value.append(to: reply!)
}

private func mprisSet(_ bus: OpaquePointer?, _ path: UnsafePointer<CChar>?, _ interface: UnsafePointer<CChar>?,
                      _ property: UnsafePointer<CChar>?, _ value: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                      _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    let request: MPRISRequest
    var status: Int32
    switch String(cString: property!) {
    case "LoopStatus":
        var text: UnsafePointer<CChar>?
        status = sd_bus_message_read_basic(value, CChar(UInt8(ascii: "s")), &text)
        request = .setLoopStatus(text.map { String(cString: $0) } ?? "")
    case "Shuffle":
        var flag: Int32 = 0
        status = sd_bus_message_read_basic(value, CChar(UInt8(ascii: "b")), &flag)
        request = .setShuffle(flag != 0)
    case let name:
        var number = 0.0
        status = sd_bus_message_read_basic(value, CChar(UInt8(ascii: "d")), &number)
        request = name == "Volume" ? .setVolume(number) : .setRate(number)
    }
    guard status >= 0 else { return status }
    switch mprisObject(userdata).handle(request) {
    case .failed(let name, let message): return sd_bus_error_set(error, name, message)
    default: return 0
    }
}

private func mprisMethod(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
                         _ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
    guard let message, let member = sd_bus_message_get_member(message) else { return -EINVAL }
    let request: MPRISRequest
    switch String(cString: member) {
    case "Raise": request = .raise
    case "Quit": request = .quit
    case "Next": request = .next
    case "Previous": request = .previous
    case "Pause": request = .pause
    case "PlayPause": request = .playPause
    case "Stop": request = .stop
    case "Play": request = .play
    case "Seek":
        var offset: Int64 = 0
        let status = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "x")), &offset)
        guard status >= 0 else { return status }
        request = .seek(microseconds: offset)
    case "SetPosition":
        var position: Int64 = 0
        guard let path = BusArguments.string(message, "o"),
              sd_bus_message_read_basic(message, CChar(UInt8(ascii: "x")), &position) > 0 else { return -EINVAL }
        request = .setPosition(trackID: path, microseconds: position)
    case "OpenUri":
        guard let uri = BusArguments.string(message, "s") else { return -EINVAL }
        request = .openURI(uri)
    case "GetTracksMetadata":
        guard let ids = BusArguments.objectPaths(message) else { return -EINVAL }
        request = .getTracksMetadata(ids)
    case "AddTrack":
        var flag: Int32 = 0
        guard let uri = BusArguments.string(message, "s"), let after = BusArguments.string(message, "o"),
              sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &flag) >= 0 else { return -EINVAL }
        request = .addTrack(uri: uri, after: after, setAsCurrent: flag != 0)
    case "RemoveTrack":
        guard let id = BusArguments.string(message, "o") else { return -EINVAL }
        request = .removeTrack(id)
    case "GoTo":
        guard let id = BusArguments.string(message, "o") else { return -EINVAL }
        request = .goTo(id)
    case "ActivatePlaylist":
        guard let id = BusArguments.string(message, "o") else { return -EINVAL }
        request = .activatePlaylist(id)
    case "GetPlaylists":
        var index: UInt32 = 0
        var count: UInt32 = 0
        var reverse: Int32 = 0
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &index) > 0,
              sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &count) > 0,
              let order = BusArguments.string(message, "s"),
              sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &reverse) > 0 else { return -EINVAL }
        request = .getPlaylists(index: index, maxCount: count, order: order, reverse: reverse != 0)
    default:
        return -EINVAL
    }
    let object = mprisObject(userdata)
    object.connection.reply(to: message, with: object.handle(request))
    return 1
}
