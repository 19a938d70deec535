// swift-tools-version:6.0
import PackageDescription

// The targets and the one direction their dependencies run (README, "How it is built"):
//
//   Base ← Model ← Config, Parsers, Cache ← Loader ← SourceTypes┐
//                  Parsers ← Decoding                         │
//                  Model ← Output                             │
//                  Loader, SQLite ← Library                   │
//          Loader, Decoding, Output ← Playback                │
//   Base ← DBus ← MPRIS (+ Playback), Manager1                │
//   everything ← Daemon ← cloudplayerd;  Config, Manager1 ← cloudplayerctl
//
// CI builds with `--explicit-target-dependency-import-check error`, so a target that imports
// what it does not list here does not build.

let logging = Target.Dependency.product(name: "Logging", package: "swift-log")

let package = Package(
    name: "cloudplayerd",
    products: [
        .executable(name: "cloudplayerd", targets: ["cloudplayerd"]),
        .executable(name: "cloudplayerctl", targets: ["cloudplayerctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    ],
    targets: [
        // C libraries, one system-library target each; Swift wraps each once, in one target.
        .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "COpusFile", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev", "libopus-dev"])]),
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        .systemLibrary(name: "CVorbisFile", pkgConfig: "vorbisfile", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // sd-bus vtable entries, which Swift cannot build from the C macros.
        .target(name: "CSDBusShim", dependencies: ["CSystemd"]),
        // ReplayGain's per-sample loop, vectorised (SSE2, AVX2 where the processor has it).
        .target(name: "CSampleGain"),

        // What every module builds on: locks, threads of our own, the PCM queue, files.
        .target(name: "Base"),
        // The values that travel between modules: tracks, queue entries, PCM, byte sources.
        .target(name: "Model", dependencies: ["CSampleGain"]),
        // config.toml: TOML, typed tables with line numbers, secrets.
        .target(name: "Config", dependencies: ["Base"]),
        // Every parser of outside bytes but the config file: audio headers and tags, feeds,
        // playlist files, XML, HTTP headers, WebDAV answers. No networking, no C libraries.
        .target(name: "Parsers", dependencies: ["Model"]),
        // The sparse cache on disk: data files and their range records. No networking.
        .target(name: "Cache", dependencies: ["Base", "Model"]),
        // Bytes of a track: sources, downloads into the cache, readers that wait for bytes.
        .target(name: "Loader", dependencies: [
            "Base", "Model", "Config", "Parsers", "Cache", logging,
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // The kinds of source, one folder each: local folders, HTTP and WebDAV servers, podcast feeds,
        // S3 buckets (SigV4 signing: HMAC-SHA256 from swift-crypto), Subsonic servers (whose token
        // is an MD5, from swift-crypto too).
        .target(name: "SourceTypes", dependencies: [
            "Base", "Model", "Config", "Parsers", "Loader",
            logging, .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // Bytes to PCM: libmpg123, libopusfile, libFLAC and libvorbisfile, on a thread of their own.
        .target(name: "Decoding", dependencies: ["Base", "Model", "Parsers", "CMPG123", "COpusFile", "CFLAC", "CVorbisFile"]),
        // PCM to sound: PulseAudio, WAV files, nowhere; the timeline of what is heard.
        .target(name: "Output", dependencies: ["Base", "Model", "CPulse", logging]),
        // SQLite (the system's, with FTS5): connections, statements, transactions, migrations.
        // No Foundation, and nothing of the library's: its tests need neither.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        // The library database and the scanner that fills it.
        .target(name: "Library", dependencies: ["Base", "Model", "Parsers", "Cache", "Loader", "SQLite", logging]),
        // The player: the play queue and the state machine over loader, decoder and output.
        .target(name: "Playback", dependencies: ["Base", "Model", "Loader", "Decoding", "Output", logging]),
        // sd-bus: a connection on a thread of its own, values, vtables, a client.
        .target(name: "DBus", dependencies: ["Base", "CSystemd", "CSDBusShim"]),
        // MPRIS 2.2 on the session bus, projected from the player's events.
        .target(name: "MPRIS", dependencies: ["Base", "Model", "DBus", "Playback", logging]),
        // org.cloudplayerd.Manager1 as a description both sides use: the daemon and cloudplayerctl.
        .target(name: "Manager1", dependencies: ["DBus"]),
        // Listens counted where the user keeps them (ListenBrainz), from the player's events.
        .target(name: "Scrobbling", dependencies: [
            "Base", "Model", "Config", "Loader", "Playback", logging,
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // The daemon: wiring, the service behind Manager1, saved state, systemd and the journal.
        .target(name: "Daemon", dependencies: [
            "Base", "Model", "Config", "Loader", "SourceTypes", "Library", "Playback", "Scrobbling", "DBus", "MPRIS", "Manager1", "CSystemd", logging,
        ]),

        .executableTarget(
            name: "cloudplayerd",
            dependencies: [
                "Model", "Config", "Loader", "SourceTypes", "Decoding", "Output", "Library", "Playback", "Scrobbling", "DBus", "MPRIS", "Manager1", "Daemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), logging,
            ]
        ),
        // The management CLI: talks to the daemon over org.cloudplayerd.Manager1; `login` reads
        // the config file's sources and runs a source's OAuth flow itself (SourceTypes).
        .executableTarget(
            name: "cloudplayerctl",
            dependencies: ["Config", "DBus", "Manager1", "SourceTypes", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Below: benchmarks, fuzzing and tests. None of it ships.

        // The parsers that meet outside bytes as fuzz targets: bench/fuzz runs them under
        // libFuzzer, the tests replay their corpus.
        .target(name: "FuzzTargets", dependencies: ["Model", "Config", "Parsers", "Cache", "Decoding"], path: "bench/FuzzTargets"),
        .target(name: "CFuzzerDriver", path: "bench/CFuzzerDriver"),
        .executableTarget(name: "cloudplayerd-fuzz", dependencies: ["FuzzTargets", "CFuzzerDriver"], path: "bench/Fuzz"),

        // bench/bus's client: times MPRIS calls; also the tests' misbehaving client.
        .executableTarget(
            name: "cloudplayerd-busbench",
            dependencies: ["DBus", "CSystemd", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "bench/BusBench"
        ),
        // bench/stream's byte counter: the tests' fault proxy as a program.
        .executableTarget(name: "cloudplayerd-streamproxy", dependencies: ["TestSupport"], path: "bench/StreamProxy"),

        // Helpers the tests share: fixtures made with sox/lame/opusenc, reference decodes, WAV files,
        // a private PulseAudio server, running child processes (CSpawnShim: two GNU calls for that).
        .target(name: "CSpawnShim", path: "Tests/CSpawnShim"),
        .target(name: "TestSupport", dependencies: ["CSpawnShim"], path: "Tests/TestSupport"),
        // The modules in one process, against real servers and real files.
        .testTarget(name: "ComponentTests", dependencies: [
            "Base", "Model", "Config", "Parsers", "Cache", "Loader", "SourceTypes", "Decoding", "Output", "Library", "Playback",
            "Scrobbling", "DBus", "MPRIS", "Manager1", "Daemon", "FuzzTargets", "TestSupport", "CSampleGain", "SQLite",
        ]),
        // The programs, run as a user runs them.
        .testTarget(name: "CloudPlayerdTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
