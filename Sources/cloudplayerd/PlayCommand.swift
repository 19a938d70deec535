import ArgumentParser
import Daemon
import DBus
import Foundation
import Loader
import Logging
import Model
import MPRIS
import Output
import Playback

struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play files or http(s) URLs in order, gaplessly, then exit.",
        discussion: """
            Formats are recognised from the bytes (MP3, Opus, FLAC, Ogg Vorbis), not from file names. A track that \
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
        if let replayGainPreamp, !(abs(replayGainPreamp) <= 24) {
            throw ValidationError("--replaygain-preamp must be between -24 and 24 dB.")
        }
    }

    func run() async throws {
        var configuration = try configOptions.load()
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let locations = files.map { configuration.location(of: $0, relativeTo: cwd) }
        let device = try await outputOptions.openDevice()
        var settings = configuration.playback
        if let replayGainMode { settings.loudness.mode = replayGainMode }
        if let replayGainPreamp { settings.loudness.preamp = replayGainPreamp }
        if let replayGainClip { settings.loudness.preventClipping = replayGainClip }
        let player = Player(loader: LoaderActor(settings: configuration.loader, sources: configuration.sources),
                            output: OutputActor(device: device), settings: settings)
        let events = player.subscribe()
        let service = noMPRIS ? nil : await Self.publish(player, sources: configuration.sources)
        let entries = await player.perform(.add(locations.map { QueueItem(location: $0) }, at: .end, play: false)).queue.entries
        let watcher = SignalWatcher()
        let signals = watcher.signals
        let interruption = Task.detached {
            for await _ in signals {
                // A second Ctrl-C, should stopping ever hang, ends the process the usual way.
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                await player.shutdown()
                return
            }
        }
        let quitting = Task.detached { [quits = service?.quitRequests] in
            guard let quits else { return }
            for await _ in quits {
                await player.shutdown()
                return
            }
        }

        await player.perform(.setVolume(volume))
        await player.perform(.playEntry(entries[0].id, at: start))
        var failures = 0
        var announced: QueueEntry?
        for await event in events {
            switch event.change {
            case .trackStarted(let entry, let info, _):
                // Once per track: a chained stream's link of another format starts it again.
                if !quiet, entry.id != announced?.id { say("Playing \(entry.displayName)\(Self.describe(entry.metadata.tags, info))") }
                announced = entry
            case .trackFailed(let entry, let error):
                failures += 1
                complain("\(entry.location.url?.path ?? entry.location.uri): \(error)")
            case .outputFailed(let error):
                failures += 1
                complain("\(error)")
                await player.shutdown()
            case .outputLost(let error):
                complain("\(error); waiting for it to come back")
            case .outputReturned:
                if !quiet { say("The sound server is back") }
            case .queueFinished, .statusChanged(.stopped):
                // The end of the queue, or a Stop from a media key or playerctl, ends `play`.
                await player.shutdown()
            case .buffering(let entry, let waiting):
                if !quiet && waiting { say("Buffering \(entry.displayName)…") }
            case .subscribed, .statusChanged, .trackEnded, .currentChanged, .artworkReady, .seeked, .positionCorrected,
                 .volumeChanged, .loopChanged, .shuffleChanged, .queueChanged, .queueReplaced, .timersChanged, .progressChanged,
                 .listenStarted, .listened, .cacheChanged:
                break
            }
        }
        interruption.cancel()
        quitting.cancel()
        await service?.stop()
        withExtendedLifetime(watcher) {}
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
            return try await BusPublication(player: player, sources: sources)
        } catch BusError.nameTaken {
            return try? await BusPublication(player: player, sources: sources, instance: String(getpid()))
        } catch {
            logger.notice("playing without MPRIS: \(error)")
            return nil
        }
    }

    private static func describe(_ tags: TrackTags, _ info: TrackInfo) -> String {
        var parts: [String] = []
        let names = [tags.artist, tags.title].compactMap { $0 }
        if !names.isEmpty { parts.append(names.joined(separator: " – ")) }
        var technical = "\(info.codec.rawValue), \(info.format)"
        if let duration = info.duration {
            let whole = Int(duration.rounded())
            technical += String(format: ", %d:%02d", whole / 60, whole % 60)
        }
        parts.append("(\(technical))")
        return ": " + parts.joined(separator: " ")
    }
}
