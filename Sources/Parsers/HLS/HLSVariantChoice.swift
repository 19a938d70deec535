extension HLSMasterPlaylist {
    /// The variant to play for its audio, and the audio rendition to fetch instead of the
    /// variant's own stream (nil: the variant's URI carries the audio).
    ///
    /// Variants whose CODECS name audio this player decodes (AAC, MP3) are the candidates, those
    /// without CODECS too; audio-only ones win over those with video, whose pictures would only
    /// be downloaded to be thrown away. Among them the highest BANDWIDTH not over `maxBandwidth`,
    /// or the lowest if all are over. Nil when no variant is playable (AC-3 only, video only).
    package func audioChoice(maxBandwidth: Int?) -> (variant: HLSVariant, audio: HLSRendition?)? {
        let playable = variants.filter { $0.codecs.isEmpty || $0.codecs.contains(where: Self.isPlayableAudio) }
        let audioOnly = playable.filter { !$0.codecs.isEmpty && $0.codecs.allSatisfy(Self.isPlayableAudio) }
        let candidates = audioOnly.isEmpty ? playable : audioOnly
        let fitting = candidates.filter { variant in maxBandwidth.map { variant.bandwidth <= $0 } ?? true }
        guard let variant = fitting.max(by: { $0.bandwidth < $1.bandwidth }) ?? candidates.min(by: { $0.bandwidth < $1.bandwidth })
        else { return nil }
        let group = audio.filter { $0.groupID == variant.audioGroup && $0.uri != nil }
        return (variant, group.first { $0.isDefault } ?? group.first)
    }

    /// AAC (`mp4a.40.*`, MPEG-2 AAC `mp4a.66`–`68`) and MPEG audio (`mp4a.40.34`, `mp4a.69`,
    /// `mp4a.6B`), as RFC 6381 names them.
    static func isPlayableAudio(_ codec: String) -> Bool {
        let name = codec.lowercased()
        return name.hasPrefix("mp4a.40.") || ["mp4a.66", "mp4a.67", "mp4a.68", "mp4a.69", "mp4a.6b"].contains(name)
    }
}
