import ArgumentParser
import Daemon
import Decoding
import DBus
import FoundationEssentials
import Glibc
import Loader
import Logging
import Model
import MPRIS
import Output
import Playback
import ServiceLifecycle

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play files or http(s) URLs in order, gaplessly, then exit.",
        discussion: """
            Formats are recognised from the bytes, not from file names: MP3; FLAC; Ogg Opus, Vorbis \
            and FLAC; WAV and AIFF (up to 32 bits, or float); AAC and ALAC in MP4 (.m4a, .m4b \
            audiobooks with their chapters); raw AAC (ADTS); and internet radio (Icecast, SHOUTcast, \
            HLS) in any of them. A track that \
            cannot be played is reported on one line and skipped; the exit status is then 1.

            URLs use the credentials of the config file's source whose url is the longest prefix \
            of theirs (see --config); every byte downloaded is kept in the cache, so a replay \
            fetches nothing and plays offline.

            Outputs:
              pulse        the default PulseAudio sink
              pulse:SINK   a named PulseAudio sink
              wav:PATH     a WAV file, written as fast as decoding goes;
                           the files must share one sample rate and channel count
              null         nowhere, at the pace of real time
                           (with --unpaced: as fast as decoding goes)

            While it plays, it publishes MPRIS on the session bus (org.mpris.MediaPlayer2.cloudplayerd, \
            or ….instancePID beside a running daemon), so media keys and playerctl control it.

            SIGINT (Ctrl-C) and SIGTERM stop playback cleanly.
            """
    )

    @Argument(help: "Audio files or http(s):// URLs to play, in order.", completion: .file())
    var files: [String]

    @OptionGroup var outputOptions: OutputOptions

    @OptionGroup var configOptions: ConfigOptions

    @Option(help: ArgumentHelp("Start the first file this many seconds in (sample-accurate).", valueName: "seconds"))
    var start: Double = 0

    @Option(help: ArgumentHelp("Volume, 0 to 1 (PulseAudio only).", valueName: "level"))
    var volume: Double = 1

    @Option(help: ArgumentHelp("Play at this many times the recorded pace, the pitch kept: 0.5 to 3 (default: the config file's, else 1).",
                               valueName: "speed"))
    var speed: Double?

    @Flag(name: .customLong("skip-silence"), inversion: .prefixedNo,
          help: "Shorten silences longer than 0.5 s to 0.25 s, for speech (default: the config file's, else off).")
    var skipSilence: Bool?

    @Option(name: .customLong("replaygain"),
            help: ArgumentHelp("Apply ReplayGain tags: off, track, album or auto (album gain while one album's tracks follow each other). Default: the config file's, else off.",
                               valueName: "mode"))
    var replayGainMode: ReplayGainSettings.Mode?

    @Option(name: .customLong("replaygain-preamp"), help: ArgumentHelp("Decibels added to every ReplayGain tag (-24 to 24).", valueName: "dB"))
    var replayGainPreamp: Double?

    @Flag(name: .customLong("replaygain-clip"), inversion: .prefixedNo,
          help: "Lower a ReplayGain gain so that the tagged peak does not clip (default: the config file's, else on).")
    var replayGainClip: Bool?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(name: .customLong("no-mpris"), help: "Do not publish the MPRIS interface on the session bus while playing.")
    var noMPRIS = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Give at least one file to play.") }
        guard start >= 0, start.isFinite else { throw ValidationError("--start must be zero or more seconds.") }
        guard volume >= 0, volume.isFinite else { throw ValidationError("--volume must be zero or more.") }
        if let speed, !PlaybackSettings.speeds.contains(speed) { throw ValidationError("--speed must be from 0.5 to 3.") }
        if let replayGainPreamp, !(abs(replayGainPreamp) <= 24) {
            throw ValidationError("--replaygain-preamp must be between -24 and 24 dB.")
        }
    }

    func run() async throws {
        // First of all: a Ctrl-C that comes while starting is kept for when the group runs.
        let signals = await SignalService(trapping: [.sigterm, .sigint])
        var configuration = try configOptions.load()
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let locations = files.map { configuration.location(of: $0, relativeTo: cwd) }
        let device = try await outputOptions.openDevice()
        var settings = configuration.playback
        if let replayGainMode { settings.loudness.mode = replayGainMode }
        if let replayGainPreamp { settings.loudness.preamp = replayGainPreamp }
        if let replayGainClip { settings.loudness.preventClipping = replayGainClip }
        if let speed {
            // Said on the command line: every file at it, whatever source it is in.
            settings.speed = speed
            settings.sourceSpeeds = [:]
        }
        if let skipSilence {
            settings.skipSilence = skipSilence
            settings.sourceSkipSilence = [:]
        }
        let loader = LoaderActor(settings: configuration.loader, sources: configuration.sources)
        let player = Player(loader: loader, decoder: DecoderActor(), output: OutputActor(device: device), settings: settings)
        let driver = PlayDriver(player: player, locations: locations, start: start, volume: volume, quiet: quiet)
        let bus = noMPRIS ? nil : await Self.publish(player, sources: configuration.sources)
        // The same parts as the daemon's, but the library and the bus's Manager1: stopped in
        // the reverse order, the loader last (a play report still under way is sent).
        let services: [any Service] = [loader, player] + (bus.map { [$0, $0.mpris] } ?? []) + [driver, signals]
        let group = DaemonServices.group(services)
        signals.connect(to: group)
        var failures = 0
        do {
            try await group.run()
        } catch {
            failures += 1
            complain("\(error)")
        }
        failures += driver.failures
        do {
            try await device.close()
        } catch {
            failures += 1
            complain("\(error)")
        }
        if failures > 0 { throw ExitCode.failure }
    }

    /// Publishes MPRIS while playing, as `…cloudplayerd`, or `…cloudplayerd.instancePID` when a
    /// daemon holds that name. Without a session bus, plays on unpublished.
    private static func publish(_ player: Player, sources: SourceSet) async -> BusPublication? {
        let logger = Logger(label: "cloudplayerd.play")
        do {
            return try await BusPublication(player: player, sources: sources, losingTheBusStops: false)
        } catch BusError.nameTaken {
            return try? await BusPublication(player: player, sources: sources, instance: String(getpid()), losingTheBusStops: false)
        } catch {
            logger.notice("playing without MPRIS: \(error)")
            return nil
        }
    }
}
