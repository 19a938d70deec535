import CAVCodec
import Model

/// One FFmpeg audio decoder — its context, a packet and a frame — set up from a codec's
/// configuration bytes and freed together: libavcodec wrapped once, for the MP4 decoder.
final class FFmpegCodec {
    let context: UnsafeMutablePointer<AVCodecContext>
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var contextToFree: UnsafeMutablePointer<AVCodecContext>?
    /// What it was made from, for `fresh()`.
    private let id: AVCodecID
    private let configuration: [UInt8]
    private let sampleRate: Int
    private let channelCount: Int

    /// Loads FFmpeg's libraries (once, at the first AAC or ALAC track), or says why it cannot.
    static func load(for codec: AudioCodec) throws {
        guard cavcodec_load() == 0 else { return }
        throw DecoderError.decodeFailed(codec, "FFmpeg's libavcodec cannot be loaded (\(String(cString: cavcodec_load_error())))")
    }

    /// Nil when FFmpeg lacks the decoder or refuses the configuration (or is not loaded).
    init?(_ id: AVCodecID, configuration: [UInt8], sampleRate: Int, channels: Int) {
        guard cavcodec_load() != 0 else { return nil }
        (self.id, self.configuration, self.sampleRate, channelCount) = (id, configuration, sampleRate, channels)
        guard let decoder = cavcodec_find_decoder(id), let context = cavcodec_alloc_context3(decoder) else { return nil }
        self.context = context
        contextToFree = context
        packet = cavcodec_packet_alloc()
        frame = cavcodec_frame_alloc()
        // FFmpeg reads up to its padding past the end of extradata: allocated with it, zeroed.
        guard packet != nil, frame != nil, let extra = cavcodec_mallocz(configuration.count + Int(cavcodec_input_padding())) else { return nil }
        extra.copyMemory(from: configuration, byteCount: configuration.count)
        context.pointee.extradata = extra.assumingMemoryBound(to: UInt8.self)
        context.pointee.extradata_size = Int32(configuration.count)
        context.pointee.sample_rate = Int32(sampleRate)
        cavcodec_channel_layout_default(&context.pointee.ch_layout, Int32(max(1, channels)))
        guard cavcodec_open2(context, decoder) >= 0 else { return nil }
    }

    deinit {
        cavcodec_frame_free(&frame)
        cavcodec_packet_free(&packet)
        cavcodec_free_context(&contextToFree)
    }

    var channels: Int { Int(context.pointee.ch_layout.nb_channels) }
    var bitsPerRawSample: Int { Int(context.pointee.bits_per_raw_sample) }

    /// Another decoder made as this one was, as it was before its first frame: what a seek starts
    /// with. (A flush would not do: it leaves an AAC decoder's noise generators and first-frame
    /// state where they were, so the same samples would not decode the same.)
    func fresh() -> FFmpegCodec? {
        FFmpegCodec(id, configuration: configuration, sampleRate: sampleRate, channels: channelCount)
    }

    /// Sends one coded frame; false if FFmpeg refused it (damaged), which its decoders skip.
    func send(_ bytes: [UInt8]) throws -> Bool {
        guard let packet, cavcodec_new_packet(packet, Int32(bytes.count)) >= 0 else { throw FFmpegCodecError.outOfMemory }
        defer { cavcodec_packet_unref(packet) }
        packet.pointee.data.update(from: bytes, count: bytes.count)
        return cavcodec_send_packet(context, packet) >= 0
    }

    /// Tells the decoder no more frames come, so it hands out what it holds.
    func sendEnd() {
        _ = cavcodec_send_packet(context, nil)
    }

    /// Calls `body` with each decoded frame ready now.
    func receive(_ body: (AVFrame) throws -> Void) rethrows {
        guard let frame else { return }
        while cavcodec_receive_frame(context, frame) >= 0 {
            defer { cavcodec_frame_unref(frame) }
            try body(frame.pointee)
        }
    }
}

enum FFmpegCodecError: Error {
    case outOfMemory
}
