import FoundationEssentials

/// The body of `POST /1/submit-listens`, as ListenBrainz's JSON documentation describes it
/// (listenbrainz.readthedocs.io/en/latest/users/json.html): a `listen_type` — `playing_now`
/// (one listen, no time), `single` (one) or `import` (several) — and the listens.
package struct ListenBrainzSubmission: Encodable, Sendable {
    package enum Kind: String, Encodable, Sendable {
        case playingNow = "playing_now"
        case single
        case `import`
    }

    /// The most listens one request may carry (the API's `MAX_LISTENS_PER_REQUEST` is 1000; a
    /// smaller batch keeps a request well under its size limit too).
    package static let largestBatch = 100

    let listenType: Kind
    let payload: [Payload]

    /// "Playing now" for `listen`: its time is left out, as the documentation requires.
    package static func playingNow(_ listen: Listen, client: String) -> ListenBrainzSubmission {
        ListenBrainzSubmission(listenType: .playingNow, payload: [Payload(listen, timed: false, client: client)])
    }

    /// Listens heard: `single` for one, `import` for more.
    package static func listens(_ listens: [Listen], client: String) -> ListenBrainzSubmission {
        ListenBrainzSubmission(listenType: listens.count == 1 ? .single : .import, payload: listens.map { Payload($0, timed: true, client: client) })
    }

    package func json() -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        // Only strings and integers: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    struct Payload: Encodable, Sendable {
        let listenedAt: Int64?
        let trackMetadata: TrackMetadata

        init(_ listen: Listen, timed: Bool, client: String) {
            listenedAt = timed ? listen.listenedAt : nil
            trackMetadata = TrackMetadata(artistName: listen.artist, trackName: listen.track, releaseName: listen.release,
                                          additionalInfo: AdditionalInfo(durationMs: listen.durationMs, tracknumber: listen.trackNumber,
                                                                         mediaPlayer: "cloudplayerd", submissionClient: "cloudplayerd",
                                                                         submissionClientVersion: client))
        }
    }

    struct TrackMetadata: Encodable, Sendable {
        let artistName: String
        let trackName: String
        let releaseName: String?
        let additionalInfo: AdditionalInfo
    }

    struct AdditionalInfo: Encodable, Sendable {
        let durationMs: Int?
        let tracknumber: Int?
        let mediaPlayer: String
        let submissionClient: String
        let submissionClientVersion: String
    }
}
