import DBus

/// A playlist as the MPRIS Playlists interface names it: `(oss)`, id, name and icon.
package struct MPRISPlaylist: BusType, Equatable {
    package static let busSignature = "(oss)"
    package var id: String
    package var name: String
    package var icon: String

    package init(id: String, name: String, icon: String = "") {
        self.id = id
        self.name = name
        self.icon = icon
    }

    /// A library playlist's MPRIS id.
    package init(libraryID: Int64, name: String) {
        self.init(id: Self.prefix + String(libraryID), name: name)
    }

    /// The library id in an MPRIS playlist id, if it is one of ours.
    package var libraryID: Int64? {
        id.hasPrefix(Self.prefix) ? Int64(id.dropFirst(Self.prefix.count)) : nil
    }

    private static let prefix = "/org/cloudplayerd/playlist/"

    package init?(busValue: BusValue) {
        guard case .structure(let fields) = busValue, fields.count == 3, case .objectPath(let id) = fields[0],
              case .string(let name) = fields[1], case .string(let icon) = fields[2] else { return nil }
        self.init(id: id, name: name, icon: icon)
    }

    package var busValue: BusValue { .structure([.objectPath(id), .string(name), .string(icon)]) }

    /// `(b(oss))`: ActivePlaylist, "maybe a playlist" (a placeholder follows `false`).
    struct Maybe: BusType, Equatable {
        static let busSignature = "(b\(MPRISPlaylist.busSignature))"
        let playlist: MPRISPlaylist?

        init(_ playlist: MPRISPlaylist?) {
            self.playlist = playlist
        }

        init?(busValue: BusValue) {
            guard case .structure(let fields) = busValue, fields.count == 2, case .bool(let valid) = fields[0],
                  let playlist = MPRISPlaylist(busValue: fields[1]) else { return nil }
            self.playlist = valid ? playlist : nil
        }

        var busValue: BusValue {
            .structure([.bool(playlist != nil), (playlist ?? MPRISPlaylist(id: "/", name: "")).busValue])
        }
    }
}
