/// What a Subsonic server answered: the envelope (`subsonic-response`) read, its error if it
/// failed. Every answer, failed ones too, says the server's API version; OpenSubsonic servers
/// say so as well.
package struct SubsonicAnswer: Sendable, Equatable {
    /// The envelope itself; its children are the payload (`album`, `playlists`, …).
    package var envelope: SubsonicElement
    /// The API version the server speaks ("1.12.0"), if it said.
    package var version: String?
    package var isOpenSubsonic: Bool
    /// `status="failed"`: the error's code and message.
    package var failure: (code: Int, message: String)?

    package static func == (lhs: SubsonicAnswer, rhs: SubsonicAnswer) -> Bool {
        lhs.envelope == rhs.envelope && lhs.failure?.code == rhs.failure?.code && lhs.failure?.message == rhs.failure?.message
    }
}
