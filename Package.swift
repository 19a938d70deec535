// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "cloudplayerd",
    products: [
        .executable(name: "cloudplayerd", targets: ["cloudplayerd"]),
        .executable(name: "cloudplayerctl", targets: ["cloudplayerctl"]),
        .library(name: "CloudPlayerCore", targets: ["CloudPlayerCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        // C libraries, one system-library target each; Swift wraps each once, in CloudPlayerCore.
        .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        .systemLibrary(name: "COpusFile", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev", "libopus-dev"])]),
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // sd-bus vtable entries, which Swift cannot build from the C macros.
        .target(name: "CSDBusShim", dependencies: ["CSystemd"]),

        .target(
            name: "CloudPlayerCore",
            dependencies: [
                "CMPG123", "COpusFile", "CPulse", "CSystemd", "CSDBusShim",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "cloudplayerd",
            dependencies: [
                "CloudPlayerCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The management CLI: talks to the daemon over org.cloudplayerd.Manager1.
        .executableTarget(
            name: "cloudplayerctl",
            dependencies: ["CloudPlayerCore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // bench/bus's client: times MPRIS calls; also the tests' misbehaving client.
        .executableTarget(
            name: "cloudplayerd-busbench",
            dependencies: ["CloudPlayerCore", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "bench/BusBench"
        ),

        // bench/fuzz's libFuzzer targets (built with -DFUZZING), else a corpus runner.
        .target(name: "CFuzzerDriver"),
        .executableTarget(name: "cloudplayerd-fuzz", dependencies: ["CloudPlayerCore", "CFuzzerDriver"], path: "bench/Fuzz"),

        // bench/stream's byte counter: the tests' fault proxy as a program.
        .executableTarget(name: "cloudplayerd-streamproxy", dependencies: ["TestSupport"], path: "bench/StreamProxy"),

        // Helpers the tests share: fixtures made with sox/lame/opusenc, reference decodes, WAV files,
        // a private PulseAudio server, running child processes (CSpawnShim: two GNU calls for that).
        .target(name: "CSpawnShim", path: "Tests/CSpawnShim"),
        .target(name: "TestSupport", dependencies: ["CSpawnShim"], path: "Tests/TestSupport"),
        .testTarget(name: "CloudPlayerCoreTests", dependencies: ["CloudPlayerCore", "TestSupport",
                                                                 .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "CloudPlayerdTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
