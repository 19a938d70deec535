import ComponentTestSupport
import Foundation
import Library
import Loader
import Model
import SourceTypes
import Testing
import TestSupport

/// What a version is (RFC 9110 §8.8): entity tags read strong or weak, quoted or not, compared
/// weakly; dates compared with dates; what `If-Range` may carry.
struct ValidatorTests {
    @Test("entity tags: strong, weak, and a PROPFIND getetag without quotes, all as the quoted tag")
    func parse() throws {
        let strong = try #require(Validator(etag: "\"abc-1\"", lastModified: nil))
        #expect(strong.etag == Validator.EntityTag(opaque: "abc-1") && strong.text == "\"abc-1\"")
        let weak = try #require(Validator(etag: " W/\"abc-1\" ", lastModified: nil))
        #expect(weak.etag == Validator.EntityTag(opaque: "abc-1", isWeak: true) && weak.text == "W/\"abc-1\"")
        let bare = try #require(Validator(etag: "16228609-1795424839-100000", lastModified: nil))
        #expect(bare.text == "\"16228609-1795424839-100000\"", "WsgiDAV's getetag is its GET ETag without quotes")
        #expect(Validator(etag: nil, lastModified: "  ") == nil)
        #expect(Validator(etag: "\"unclosed", lastModified: nil) == nil)
    }

    @Test("the text kept in records reads back, and records of before (a tag or a date alone) read as they did")
    func text() throws {
        let both = try #require(Validator(etag: "W/\"x y\"", lastModified: "Sun, 22 Nov 2026 08:28:48 GMT"))
        #expect(both.text == "W/\"x y\" Sun, 22 Nov 2026 08:28:48 GMT")
        #expect(Validator(text: both.text) == both)
        #expect(Validator(text: "\"v1\"")?.etag?.opaque == "v1" && Validator(text: "\"v1\"")?.lastModified == nil)
        #expect(Validator(text: "Sun, 22 Nov 2026 08:28:48 GMT")?.lastModified == "Sun, 22 Nov 2026 08:28:48 GMT")
        #expect(Validator(text: "1700000000.123")?.lastModified == "1700000000.123", "a local file's version")
        #expect(Validator(text: "") == nil && Validator(text: nil) == nil)
    }

    @Test("the same version: tags by the weak comparison, dates with dates, a tag against a date alone unknown")
    func sameVersion() {
        #expect(Validator.sameVersion("W/\"x\"", "\"x\"") == true)
        #expect(Validator.sameVersion("W/\"x\"", "W/\"x\"") == true)
        #expect(Validator.sameVersion("\"x\"", "\"y\"") == false)
        #expect(Validator.sameVersion("\"x\" Sun, 22 Nov 2026 08:28:48 GMT", "\"y\" Sun, 22 Nov 2026 08:28:48 GMT") == false,
                "tags decide when both have one")
        // nginx: the listing gives only the date, the record keeps GET's tag and date.
        #expect(Validator.sameVersion("Sun, 22 Nov 2026 08:28:48 GMT", "\"6b0-186a0\" Sun, 22 Nov 2026 08:28:48 GMT") == true)
        #expect(Validator.sameVersion("Sun, 22 Nov 2026 08:28:49 GMT", "\"6b0-186a0\" Sun, 22 Nov 2026 08:28:48 GMT") == false)
        #expect(Validator.sameVersion("Sunday, 22-Nov-26 08:28:48 GMT", "Sun, 22 Nov 2026 08:28:48 GMT") == true, "RFC 850 form")
        #expect(Validator.sameVersion("\"x\"", "Sun, 22 Nov 2026 08:28:48 GMT") == nil)
        #expect(Validator.sameVersion(nil, "\"x\"") == nil)
    }

    @Test("If-Range: a strong tag; a date only without any tag and 60 s or more before the answer's Date (RFC 9110 §8.8.2.2)")
    func ifRange() {
        let modified = "Sun, 22 Nov 2026 08:28:48 GMT"
        #expect(Validator(etag: "\"x\"", lastModified: modified, date: "Sun, 22 Nov 2026 09:00:00 GMT")?.ifRange == "\"x\"")
        #expect(Validator(etag: "W/\"x\"", lastModified: modified, date: "Sun, 22 Nov 2026 09:00:00 GMT")?.ifRange == nil,
                "a weak tag given: the date may not stand in (RFC 9110 §13.1.5)")
        #expect(Validator(etag: nil, lastModified: modified, date: "Sun, 22 Nov 2026 08:29:48 GMT")?.ifRange == modified)
        #expect(Validator(etag: nil, lastModified: modified, date: "Sun, 22 Nov 2026 08:29:47 GMT")?.ifRange == nil,
                "59 s before the answer: the two clocks may differ, a weak date")
        #expect(Validator(etag: nil, lastModified: modified, date: "Sun, 22 Nov 2026 08:28:48 GMT")?.ifRange == nil,
                "changed within the second of the answer: a weak date")
        #expect(Validator(etag: nil, lastModified: modified, date: nil)?.ifRange == nil, "no Date: not known strong")
        #expect(Validator(text: modified)?.ifRange == nil, "a date from a record or listing is not known strong")
        #expect(Validator(text: "\"x\" \(modified)")?.ifRange == "\"x\"")
    }

    @Test("HTTP-dates in the three forms of RFC 9110 §5.6.7 read as one moment; IMF-fixdate written; anything else no date")
    func httpDates() {
        let moment = Date(timeIntervalSince1970: 784_111_777)  // RFC 9110's example, Sun, 06 Nov 1994 08:49:37 GMT
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
                     "  sun, 06 nov 1994 08:49:37 GMT "] {
            #expect(Validator.date(text) == moment, "\(text)")
        }
        #expect(Validator.httpDate(moment) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(Validator.httpDate(Date(timeIntervalSince1970: 1_795_000_000.9)) == "Wed, 18 Nov 2026 11:06:40 GMT")
        #expect(Validator.date("Wednesday, 18-Nov-26 11:06:40 GMT") == Date(timeIntervalSince1970: 1_795_000_000), "a 2-digit year within 50 years is ahead")
        #expect(Validator.date("Thu, 29 Feb 2024 23:59:59 GMT") == Date(timeIntervalSince1970: 1_709_251_199))
        for bad in ["Fri, 31 Apr 2026 10:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 06 Nov 1994 25:49:37 GMT",
                    "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994", "", "1700000000.123"] {
            #expect(Validator.date(bad) == nil, "\(bad)")
        }
    }

    @Test("a cached copy is kept only for a listing that states the same version, or states none")
    func cachedCopyIsCurrent() {
        let date = "Sun, 22 Nov 2026 08:28:48 GMT"
        #expect(Validator.cachedCopyIsCurrent(listed: date, recorded: "\"6b0-186a0\" \(date)"))
        let wsgidav = Validator(etag: "6b0-186a0", lastModified: nil)?.text  // its getetag, unquoted
        #expect(Validator.cachedCopyIsCurrent(listed: wsgidav, recorded: "\"6b0-186a0\""), "WsgiDAV's unquoted getetag")
        #expect(Validator.cachedCopyIsCurrent(listed: nil, recorded: "\"x\""), "a listing without versions: the length decides")
        #expect(!Validator.cachedCopyIsCurrent(listed: "Sun, 22 Nov 2026 08:30:00 GMT", recorded: "\"6b0-186a0\" \(date)"))
        // A record of before (GET's tag alone) against nginx's date: not known the same, fetched again
        // once; taking it for the same would serve a file rewritten at its old length from old bytes.
        #expect(!Validator.cachedCopyIsCurrent(listed: date, recorded: "\"6b0-186a0\""))
        #expect(!Validator.cachedCopyIsCurrent(listed: date, recorded: nil))
        #expect(Validator.date("1700000000.123") == nil, "a local file's version is no date")
    }

    @Test("scan, play, then replay after restarts: no body byte on replay, and the cached copy survives a rescan",
          .timeLimit(.minutes(3)), arguments: WebDAVTestServer.Kind.allCases)
    func replayFromCache(kind: WebDAVTestServer.Kind) async throws {
        try await scanPlayReplay(kind: kind)
    }

    /// Apache tags a file weakly in GET and PROPFIND until a second after its modification
    /// time. Dated an hour ahead, the file is tagged weakly while it is scanned and played,
    /// however long that takes; dated an hour back, strongly from the next request on — the
    /// same tag (made of inode and size here), so the tag turning strong is the same version.
    @Test("Apache's weak ETags turning strong: no If-Range carries a weak one, every ranged GET is answered 206, a scan reads at most 70 KiB, a replay under the strong tag sends no byte",
          .timeLimit(.minutes(3)))
    func apacheWeakTags() async throws {
        try await scanPlayReplay(kind: .apache, weakUntilRedated: true)
    }

    /// A server whose every ETag is weak (the proxy's weak mode in front of rclone, as web
    /// frameworks answer): never in If-Range, every 206 checked, and the copy recognised.
    @Test("weak ETags always (the proxy's weak mode): no If-Range carries one, every ranged GET is answered 206, a scan reads at most 70 KiB, replays and a rescan send no byte",
          .timeLimit(.minutes(3)))
    func alwaysWeakTags() async throws {
        try await scanPlayReplay(kind: .rclone, weakProxy: true)
    }

    /// `weakUntilRedated`: the file dated an hour ahead, so that Apache tags it weakly, until the
    /// replays, when it is dated an hour back; `weakProxy`: the proxy passes every tag on weak.
    private func scanPlayReplay(kind: WebDAVTestServer.Kind, weakUntilRedated: Bool = false, weakProxy: Bool = false) async throws {
        let rig = try await StreamingRig([.longOpus], server: kind, tagsFollowDate: !weakUntilRedated)
        rig.proxy.setWeakensETags(weakProxy)
        let datedAhead = weakUntilRedated || weakProxy
        let file = rig.server.root.appendingPathComponent(Fixtures.File.longOpus.rawValue).path
        if datedAhead {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(weakUntilRedated ? 3600 : 0)],
                                                  ofItemAtPath: file)
        }
        let origin = try rig.origin(.longOpus)
        let configuration = try LoaderConfiguration.parse(rig.configText(), relativeTo: rig.directory)
        func getBytes() -> Int { rig.proxy.log.filter { $0.method == "GET" }.reduce(0) { $0 + $1.bodyBytes } }

        let library = LibraryActor()
        try await library.openDatabase(at: rig.directory.appendingPathComponent("library.sqlite"))
        let first = LoaderActor(configuration: configuration)
        let scan = try #require(await library.scan(["dav"], loader: first).first)
        #expect(scan.tracks == 1 && scan.tagsRead == 1, "\(kind)")
        if datedAhead { #expect(getBytes() <= 70 * 1024, "\(kind): the scan fetched \(getBytes()) bytes") }
        #expect(try await first.open(rig.url(.longOpus)).readWhole() == origin)
        await first.shutdown()
        #expect(try rig.cache.holdsWhole(origin), "\(kind): the play left the whole file cached")
        if datedAhead {
            let gets = rig.proxy.log.filter { $0.method == "GET" }
            #expect(gets.allSatisfy { $0.ifRange?.hasPrefix("W/") != true }, "\(kind): \(gets.compactMap(\.ifRange))")
            #expect(gets.allSatisfy { $0.range == nil || $0.status == 206 }, "\(kind): \(gets.map { "\($0.range ?? "-") \($0.status)" })")
            #expect(getBytes() <= origin.count + 64 * 1024, "\(kind): \(getBytes()) bytes for a \(origin.count)-byte file")
            #expect(gets.contains { $0.etag?.hasPrefix("W/") == true }, "\(kind): weak tags while dated ahead: \(gets.compactMap(\.etag))")
            if weakUntilRedated {
                // An hour past its date: Apache tags it strongly from now on.
                try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: file)
            }
        }

        // Each replay is a new run: the copy is revalidated with a listing and played from the cache.
        var replayed: [Int] = []
        for _ in 0..<2 {
            rig.proxy.clearLog()
            let loader = LoaderActor(configuration: configuration)
            #expect(try await loader.open(rig.url(.longOpus)).readWhole() == origin)
            await loader.shutdown()
            replayed.append(getBytes())
        }
        #expect(replayed == [0, 0], "\(kind): body bytes sent for each replay of a \(origin.count)-byte file")
        if weakUntilRedated {
            // What the server states now, seen by a loader with a cache of its own: a strong tag.
            rig.proxy.clearLog()
            let other = try LoaderConfiguration.parse(rig.configText().replacingOccurrences(of: rig.cacheDirectory.path,
                                                                                     with: rig.directory.appendingPathComponent("other").path),
                                                relativeTo: rig.directory)
            let probe = LoaderActor(configuration: other)
            _ = try await probe.bytes(in: 0..<1024, of: await probe.sources.location(of: rig.url(.longOpus)))
            await probe.shutdown()
            let tags = rig.proxy.log.compactMap(\.etag)
            #expect(!tags.isEmpty && tags.allSatisfy { !$0.hasPrefix("W/") }, "\(kind): \(tags)")
        }
        #expect(try rig.cache.holdsWhole(origin), "\(kind)")

        // A scan into a new library reads the tags again, with the listing's version: from the cache.
        rig.proxy.clearLog()
        let fresh = LibraryActor()
        try await fresh.openDatabase(at: rig.directory.appendingPathComponent("library-2.sqlite"))
        let rescanner = LoaderActor(configuration: configuration)
        let rescan = try #require(await fresh.scan(["dav"], loader: rescanner).first)
        await rescanner.shutdown()
        #expect(rescan.tracks == 1 && rescan.tagsRead == 1)
        #expect(getBytes() == 0, "\(kind): a rescan fetched \(getBytes()) bytes of a cached file")
        #expect(try rig.cache.holdsWhole(origin), "\(kind): the cached copy survives a rescan")
    }
}
