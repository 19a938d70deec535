// swift-tools-version:6.0
import PackageDescription

// The targets of Sources in rows: each depends only on targets of the rows above it, so the
// dependencies run one way. docs/architecture.md says what each holds; Tests/MapTests checks
// these rows, that page and every `import` (a direct dependency only) against this file.
//
//   CSpawnShim · CConcurrencyHooks · CSocketDiag · CSampleGain · CMPG123 · COpusFile · CFLAC · CVorbisFile · CAVCodec · CPulse · CSoundTouch · CSystemd · CSQLite · CPCRE2 · CCurl
//   Base · SQLite
//   Model · Config · CSDBusShim
//   Parsers · Cache · DBus
//   Loader · Decoding · Output · Manager1 · Keyring
//   BoxAnswers · DropboxAnswers · FeedAnswers · GoogleDriveAnswers · OAuthAnswers · OneDriveAnswers · S3Answers · SubsonicAnswers · WebDAVAnswers · YandexDiskAnswers
//   SourceTypes · Library · Playback
//   MPRIS · Scrobbling · MPD · SearchProviders
//   Daemon · CtlCommands
//   cloudplayerd · cloudplayerctl
//
// CI builds with `--explicit-target-dependency-import-check error`, so a target that imports
// what it does not depend on (directly or not) does not build.

let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")

// The test targets' own code is built unoptimized, as one module each, in a release build too
// (packaging/test-all.sh tests the release build the package ships): nothing the tests measure
// runs in their own code. Measured on 2026-11-27 (2a6d90a) on two cores, for the three test targets:
// optimized, ComponentTests alone kept one core busy for over four minutes; one compiler job per
// file (`-no-whole-module-optimization`) loaded every module a test file imports 200 times over,
// 905 s of CPU; as one module each, 368 s (batches of files, 415 s, make the compiler warn that it
// ignores release's `-num-threads`). What they test, the program and its modules, and
// TestSupport's sample-by-sample comparisons stay optimized.
let testCode: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

// The source types whose folder holds answer parsers (Sources/SourceTypes/KIND/Answers): each such
// folder is the target KINDAnswers — bytes to values, no networking — which the fuzz targets and
// tests link without the network stack SourceTypes brings; SourceTypes compiles the rest of the
// folder. (An Answers folder not named here simply builds as part of SourceTypes.)
let answerParsers = ["Box", "Dropbox", "Feed", "GoogleDrive", "OAuth", "OneDrive", "S3", "Subsonic", "WebDAV", "YandexDisk"]
func answers(_ kind: String) -> Target.Dependency { .target(name: kind + "Answers") }

let package = Package(
    name: "cloudplayerd",
    products: [
        .executable(name: "cloudplayerd", targets: ["cloudplayerd"]),
        .executable(name: "cloudplayerctl", targets: ["cloudplayerctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries, one system-library target each; Swift wraps each once, in one target.
        .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "COpusFile", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev", "libopus-dev"])]),
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        .systemLibrary(name: "CVorbisFile", pkgConfig: "vorbisfile", providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
        // No pkgConfig: soundtouch.pc names the C++ library; the C one is linked by the module map.
        .systemLibrary(name: "CSoundTouch", providers: [.apt(["libsoundtouch-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-8", providers: [.apt(["libpcre2-dev"])]),
        // libcurl, the HTTP client: HTTP/1.1, TLS with the system's OpenSSL and CAs, HTTP and
        // SOCKS5 proxies. Loaded (dlopen) for the first request, like CAVCodec: linked, it and the
        // libraries it brings were 5–6 MiB of an idle daemon's RSS. Its header at build time
        // (libcurl4-openssl-dev); curl_easy_setopt and curl_easy_getinfo (variadic) as typed
        // functions. It replaced AsyncHTTPClient with NIOSSL, whose vendored BoringSSL and HTTP/2
        // stack were a third of every fresh build's CPU time (247e8a4, 2026-11-28).
        .target(name: "CCurl"),
        // FFmpeg's libavcodec, loaded (dlopen) when the first AAC or ALAC track opens: linked, its
        // 90-odd libraries cost every start 16 ms. Its headers only at build time (libavcodec-dev).
        .target(name: "CAVCodec"),
        // sd-bus vtable entries, which Swift cannot build from the C macros.
        .target(name: "CSDBusShim", dependencies: ["CSystemd"]),
        // ReplayGain's per-sample loop, vectorised (SSE2, AVX2 where the processor has it).
        .target(name: "CSampleGain"),

        // posix_spawn's two GNU calls (close every inherited descriptor; a close-on-exec pipe).
        .target(name: "CSpawnShim"),
        // Who owns a TCP socket of this machine, asked of the kernel over netlink (sock_diag): the
        // MPD server tells a loopback client of the daemon's own user from another user's.
        .target(name: "CSocketDiag"),

        // The addresses of Swift concurrency's global-executor hooks, found by the linker: in the
        // package's program, whose Swift runtime is linked in, no dynamic symbol table names them
        // (dlsym, as NIO's own take-over looks for them, finds nothing there).
        .target(name: "CConcurrencyHooks"),

        // What every module builds on: locks, threads of our own, the pool for blocking work
        // (NIO's thread pool), the PCM queue, files, digests, running a command, and the executor
        // Swift concurrency's jobs run on in the daemon (NIO's event loops, EventLoopExecutor).
        .target(name: "Base", dependencies: ["CSpawnShim", "CConcurrencyHooks", .product(name: "NIOCore", package: "swift-nio"),
                                             .product(name: "NIOPosix", package: "swift-nio")]),
        // The values that travel between modules: tracks, queue entries, PCM, byte sources.
        .target(name: "Model", dependencies: ["Base", "CSampleGain"]),
        // config.toml: TOML, typed tables with line numbers, secrets.
        .target(name: "Config", dependencies: ["Base"]),
        // The parsers of outside bytes that more than one kind of source or the decoders use: audio
        // headers and tags, playlist files, XML, dates, HTTP headers, JSON and text decoding.
        // No networking, no C libraries. Only FoundationEssentials, never Foundation (and its ICU):
        // MemberImportVisibility keeps Foundation's members that Model's import lends out of reach.
        .target(name: "Parsers", dependencies: ["Base", "Model"], swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
        // The sparse cache on disk: data files and their range records. No networking.
        .target(name: "Cache", dependencies: ["Base", "Model"]),
        // Bytes of a track: sources, downloads into the cache, readers that wait for bytes.
        .target(name: "Loader", dependencies: [
            "Base", "Model", "Config", "Parsers", "Cache", "CAVCodec", "CCurl", logging,
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"), serviceLifecycle,
        ]),
        // The kinds of source, one folder each: local folders, HTTP and WebDAV servers, podcast feeds,
        // S3 buckets (SigV4 signing: HMAC-SHA256), Subsonic servers (whose token is an MD5),
        // Yandex.Disk, Dropbox, OneDrive, Google Drive and Box; the
        // digests are Base's own.
        .target(name: "SourceTypes", dependencies: [
            "Base", "Model", "Config", "Parsers", "Loader",
            logging,
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ] + answerParsers.map(answers), exclude: answerParsers.map { "\($0)/Answers" }),
        // Bytes to PCM: libmpg123, libopusfile, libFLAC and libvorbisfile, on a thread of their own.
        .target(name: "Decoding", dependencies: ["Base", "Model", "Parsers", "CMPG123", "COpusFile", "CFLAC", "CVorbisFile", "CAVCodec", "CSampleGain", logging]),
        // PCM to sound: PulseAudio, WAV files, nowhere; the timeline of what is heard.
        .target(name: "Output", dependencies: ["Base", "Model", "CPulse", "CSoundTouch", logging]),
        // SQLite (the system's, with FTS5): connections, statements, transactions, migrations.
        // No Foundation, and nothing of the library's: its tests need neither.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        // The library database and the scanner that fills it.
        .target(name: "Library", dependencies: ["Base", "Model", "Parsers", "Cache", "Loader", "SQLite", "CPCRE2", logging, serviceLifecycle]),
        // The player: the play queue and the state machine over loader, decoder and output.
        .target(name: "Playback", dependencies: ["Base", "Model", "Loader", "Decoding", "Output", logging, serviceLifecycle]),
        // sd-bus: a connection on a thread of its own, values, vtables, a client.
        .target(name: "DBus", dependencies: ["Base", "CSystemd", "CSDBusShim"]),
        // MPRIS 2.2 on the session bus, projected from the player's events.
        .target(name: "MPRIS", dependencies: ["Base", "Model", "DBus", "Playback", logging, serviceLifecycle]),
        // The MPD protocol server (mpc, ncmpcpp, Cantata, phone remotes), projected from the
        // player's events like MPRIS; commands in families, over SwiftNIO sockets.
        .target(name: "MPD", dependencies: [
            "Base", "Model", "Config", "Library", "Playback", "Loader", "CSocketDiag", logging, serviceLifecycle,
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // org.cloudplayerd.Manager1 as a description both sides use: the daemon and cloudplayerctl.
        .target(name: "Manager1", dependencies: ["DBus"]),
        // The desktop's keyring (the freedesktop Secret Service) over our own sd-bus layer: the
        // config's `*_keyring` secrets and the logins' tokens; handed to Config and SourceTypes
        // as their `SecretKeyring`, so neither depends on D-Bus.
        .target(name: "Keyring", dependencies: ["Base", "Config", "DBus", logging]),
        // Listens counted where the user keeps them (ListenBrainz), from the player's events.
        .target(name: "Scrobbling", dependencies: [
            "Base", "Model", "Config", "Loader", "Playback", logging, serviceLifecycle,
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // The desktop's search over the library: GNOME Shell's search provider and KRunner's
        // runner, on the daemon's bus connection; a result chosen plays.
        .target(name: "SearchProviders", dependencies: ["Base", "DBus", "Library", "Playback", logging]),
        // The daemon: wiring, the service behind Manager1, saved state, systemd and the journal.
        .target(name: "Daemon", dependencies: [
            "Base", "Model", "Config", "Loader", "SourceTypes", "Library", "Playback", "Scrobbling", "DBus", "MPRIS", "MPD", "Manager1", "Keyring",
            "SearchProviders", "CSystemd", logging,
            serviceLifecycle, .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        ]),

        .executableTarget(
            name: "cloudplayerd",
            dependencies: [
                "Base", "Model", "Config", "Loader", "SourceTypes", "Decoding", "Output", "Library", "Playback", "Scrobbling", "DBus", "MPRIS", "MPD", "Manager1", "Daemon",
                "CtlCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), logging, serviceLifecycle,
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The management CLI: talks to the daemon over org.cloudplayerd.Manager1; `login` reads
        // the config file's sources and runs a source's OAuth flow itself (SourceTypes). A library,
        // so that `cloudplayerd` runs it when started as `cloudplayerctl` (the package's link).
        .target(
            name: "CtlCommands",
            dependencies: ["Base", "Config", "DBus", "Manager1", "Keyring", "SourceTypes", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The development build's `cloudplayerctl` (the tests run it); the package ships only cloudplayerd.
        .executableTarget(name: "cloudplayerctl", dependencies: ["CtlCommands"]),

        // Below: benchmarks, fuzzing and tests. None of it ships.

        // The parsers that meet outside bytes as fuzz targets: bench/fuzz runs them under
        // libFuzzer, the tests replay their corpus.
        .target(name: "FuzzTargets", dependencies: ["Model", "Config", "Parsers", "Cache", "Decoding"] + ["Feed", "S3", "Subsonic", "WebDAV"].map(answers),
                path: "bench/FuzzTargets"),
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
        // a private PulseAudio server, running child processes (with CSpawnShim, as Base does).
        .target(name: "TestSupport", dependencies: ["CSpawnShim"], path: "Tests/TestSupport"),
        // What the tests of the modules share that needs the modules: bytes read whole or unsized,
        // a decode timed on its own thread, tag fixtures, a loopback probe.
        .target(name: "ComponentTestSupport", dependencies: ["Base", "Model", "Parsers", "Decoding", "TestSupport"],
                path: "Tests/ComponentTestSupport", swiftSettings: testCode),
        // The modules below the network stack (Base, SQLite, Model, Parsers, Cache, Decoding, the
        // answer parsers), in one process: built as soon as those are, beside the rest of the build.
        .testTarget(name: "BaseLayerTests", dependencies: [
            "Base", "Model", "Parsers", "Cache", "Decoding", "FuzzTargets", "TestSupport", "ComponentTestSupport", "CSampleGain", "SQLite",
        ] + answerParsers.map(answers), swiftSettings: testCode),
        // The modules above it up to the player and the library (Loader, SourceTypes, Library,
        // Playback, Output, Keyring, MPRIS's state), in one process, against real servers and
        // real files: built as soon as those are, beside MPD and the daemon.
        .testTarget(name: "ComponentTests", dependencies: [
            "Base", "Model", "Config", "Parsers", "Cache", "Loader", "SourceTypes", "Decoding", "Output", "Library", "Playback",
            "MPRIS", "Keyring", "FuzzTargets", "TestSupport", "ComponentTestSupport", "SQLite", answers("Subsonic"),
        ], swiftSettings: testCode),
        // The top rows' modules (MPD, Scrobbling, the daemon's configuration and Manager1 service):
        // small, so the last module built is followed by little.
        .testTarget(name: "DaemonLayerTests", dependencies: [
            "Config", "DBus", "Library", "Loader", "Model", "Output", "Playback", "SourceTypes", "Scrobbling", "MPD", "Manager1", "Daemon",
            "CtlCommands", "TestSupport", "ComponentTestSupport",
        ], swiftSettings: testCode),
        // The programs, run as a user runs them.
        .testTarget(name: "CloudPlayerdTests", dependencies: ["TestSupport"], swiftSettings: testCode),
        // Package.swift, the imports and the docs' maps of the targets and folders, against each other.
        .testTarget(name: "MapTests", dependencies: ["TestSupport"], swiftSettings: testCode),
    ] + answerParsers.map { kind in
        // A source type's answer parsers (`answerParsers` above).
        .target(name: kind + "Answers", dependencies: ["Base", "Model", "Parsers"], path: "Sources/SourceTypes/\(kind)/Answers")
    },
    swiftLanguageModes: [.v6]
)
