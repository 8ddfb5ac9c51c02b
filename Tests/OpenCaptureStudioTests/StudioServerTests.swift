import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import CaptureCore
import MediaFormats
#endif
import OpenCapturePhotos
import OpenCaptureTestSupport
import Testing
@testable import OpenCaptureStudio

/// The studio's HTTP API on a live server (loopback, a free port, a VGA camera, a library of its own). Each test has a
/// time limit: a server that never starts or never answers (a start-up check that stopped failing once hung the suite,
/// and CI with it) fails its test instead.
@Suite(.serialized, .timeLimit(.minutes(1))) struct StudioServerTests {
    /// A running studio for one test.
    final class Running: @unchecked Sendable {
        // `@unchecked Sendable`: `lock` guards `port`; the rest is set once.
        let server: StudioServer
        let folder: URL
        private let lock = NSLock()
        private var port = 0
        private var task: Task<Void, any Error>?

        init() async throws {
            folder = try ExternalTool.temporaryDirectory()
            var configuration = StudioConfiguration()
            configuration.port = 0
            configuration.preset = .vga640x480
            configuration.libraryURL = folder.appendingPathComponent("Photos", isDirectory: true)
            server = StudioServer(configuration: configuration)
            let server = server
            task = Task { try await server.run { port in self.lock.withLock { self.port = port } } }
            for _ in 0..<200 where lock.withLock({ port }) == 0 { try await Task.sleep(for: .milliseconds(25)) }
        }

        var base: String { "http://127.0.0.1:\(lock.withLock { port })" }

        func request(_ path: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:])
            async throws -> (status: Int, body: Data, type: String, response: HTTPURLResponse) {
            var request = URLRequest(url: URL(string: base + path)!)
            request.httpMethod = method
            request.httpBody = body.map { Data($0.utf8) }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = response as! HTTPURLResponse
            return (http.statusCode, data, http.value(forHTTPHeaderField: "Content-Type") ?? "", http)
        }

        /// POSTs with the page's token and origin.
        func post(_ path: String, _ body: String) async throws -> (status: Int, body: Data, type: String, response: HTTPURLResponse) {
            try await request(path, method: "POST", body: body, headers: ["X-Studio-Token": server.token, "Origin": base])
        }

        /// Takes a shot and waits for its outcome: the last event ("done" or "error") and its message.
        func shoot(_ body: String) async throws -> (type: String, message: String) {
            let events = server.hub.subscribe().events
            let r = try await post("/api/capture", body)
            guard r.status == 202, let id = json(r.body)["capture"] as? String else { return ("refused \(r.status)", "") }
            for await text in events {
                let event = json(Data(text.utf8))
                guard event["capture"] as? String == id, let type = event["type"] as? String, ["done", "error"].contains(type) else { continue }
                return (type, event["message"] as? String ?? "")
            }
            return ("ended", "")
        }

        /// A raw connection that asked for `path` and has read until `marker` arrived (its descriptor), as a browser's
        /// image element holds one; nil when nothing came within 30 s.
        func openStream(_ path: String, until marker: String) -> Int32? {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(URL(string: base)!.port!).bigEndian)
            inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            guard connected == 0, send(fd, request, request.utf8.count, 0) == request.utf8.count else { close(fd); return nil }
            var received = Data(), buffer = [UInt8](repeating: 0, count: 65536)
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, !received.contains(Data(marker.utf8)) {
                let n = recv(fd, &buffer, buffer.count, 0)
                guard n > 0 else { break }
                received.append(contentsOf: buffer[0..<n])
            }
            guard received.contains(Data(marker.utf8)) else { close(fd); return nil }
            return fd
        }

        func json(_ data: Data) -> [String: Any] { (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:] }

        func stop() {
            task?.cancel()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func thePageAndItsStateAreServedOnLoopback() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let page = try await studio.request("/")
        #expect(page.status == 200 && page.type.hasPrefix("text/html"))
        #expect(String(decoding: page.body, as: UTF8.self).contains(studio.server.token))
        let state = studio.json(try await studio.request("/api/state").body)
        let modes = state["modes"] as? [[String: Any]] ?? []
        #expect(modes.map { $0["id"] as? String } == ["photo", "bracket", "raw", "depth", "livePhoto"])
        #expect(modes.dropLast().allSatisfy { $0["available"] as? Bool == true })
        #expect(modes.last?["available"] as? Bool == false, "Live Photos need the photo preset; this studio runs at VGA")
        #expect((state["viewfinder"] as? [String: Any])?["available"] as? Bool == true)
        #expect(studio.server.configuration.host == "127.0.0.1")
    }

    /// A library the studio cannot use is refused before it listens, as `library list` refuses it, and left as it is.
    @Test func aLibraryThatCannotBeUsedIsRefusedAtStart() async throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = folder.appendingPathComponent("Damaged", isDirectory: true), file = folder.appendingPathComponent("file")
        try FileManager.default.createDirectory(at: damaged, withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x5A, count: 4096)
        try garbage.write(to: damaged.appendingPathComponent("Photos.sqlite"))
        try Data("not a folder".utf8).write(to: file)
        for (library, reason) in [(damaged, "cannot open the photo library at \(damaged.path): SQLite error 26: file is not a database"),
                                  (file, "\(file.path) is a file, not a photo library folder (--library)")] {
            var configuration = StudioConfiguration()
            configuration.port = 0
            configuration.libraryURL = library
            let listened = Locked(false)
            await #expect(throws: StudioStartError.self) {
                do {
                    try await StudioServer(configuration: configuration).run { _ in listened.withLock { $0 = true } }
                } catch let error as StudioStartError {
                    #expect(error.description == reason)
                    throw error
                }
            }
            #expect(!listened.withLock { $0 })
        }
        #expect(try Data(contentsOf: damaged.appendingPathComponent("Photos.sqlite")) == garbage)
        #expect(try Data(contentsOf: file) == Data("not a folder".utf8))
    }

    @Test func postsNeedTheTokenAndTheStudiosOrigin() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let body = #"{"mode":"photo"}"#
        var r = try await studio.request("/api/capture", method: "POST", body: body)
        #expect(r.status == 403 && studio.json(r.body)["error"] as? String == "missing or wrong studio token")
        r = try await studio.request("/api/capture", method: "POST", body: body, headers: ["X-Studio-Token": "guess"])
        #expect(r.status == 403)
        r = try await studio.request("/api/capture", method: "POST", body: body,
                                     headers: ["X-Studio-Token": studio.server.token, "Origin": "http://evil.example"])
        #expect(r.status == 403 && studio.json(r.body)["error"] as? String == "cross-origin request refused")
        // The token alone is not enough: a browser always sends the Origin of a POST, a forged request may not.
        r = try await studio.request("/api/capture", method: "POST", body: body, headers: ["X-Studio-Token": studio.server.token])
        #expect(r.status == 403 && studio.json(r.body)["error"] as? String == "the request has no Origin: changes come from the studio's page")
        r = try await studio.request("/api/mode", method: "POST", body: body, headers: ["X-Studio-Token": studio.server.token, "Origin": "null"])
        #expect(r.status == 403)
        #expect(studio.server.log.all.isEmpty)
        #expect(try await studio.post("/api/mode", body).status == 200, "token and origin together")
    }

    @Test func aForeignHostNameIsRefusedEvenForReading() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let port = URL(string: studio.base)!.port!
        // DNS rebinding: a foreign name that resolves to 127.0.0.1 gets neither the page (with its token) nor the library.
        for path in ["/", "/api/state", "/api/assets"] {
            let r = try await studio.request(path, headers: ["Host": "evil.example:\(port)"])
            #expect(r.status == 403, "\(path)")
            #expect(!String(decoding: r.body, as: UTF8.self).contains(studio.server.token))
        }
        #expect(try await studio.request("/", headers: ["Host": "localhost:\(port)"]).status == 200)
        #expect(try await studio.request("/", headers: ["Host": "127.0.0.1:\(port)"]).status == 200)
    }

    @Test func hostNamesAllowedOnLoopbackAndOnTheNetwork() {
        typealias Guard = StudioHost
        for allowed in ["localhost:8080", "LOCALHOST", "127.0.0.1:1", "127.9.8.7", "[::1]:8080", "localhost.:80"] {
            #expect(Guard.allows(authority: allowed, listeningOn: "127.0.0.1"), "\(allowed)")
        }
        for refused in ["evil.example:8080", "192.168.1.20:8080", "", ":8080", "localhost:http", "[::1", "127.0.0.1.evil.example",
                        "localhost.evil.example:8080"] {
            #expect(!Guard.allows(authority: refused, listeningOn: "127.0.0.1"), "\(refused)")
        }
        // Serving the network: addresses as typed, not names someone else controls.
        #expect(Guard.allows(authority: "192.168.1.20:8080", listeningOn: "0.0.0.0"))
        #expect(Guard.allows(authority: "[fe80::1]:8080", listeningOn: "0.0.0.0"))
        #expect(!Guard.allows(authority: "evil.example:8080", listeningOn: "0.0.0.0"))
    }

    @Test func badRequestsAreJSONErrors() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let token = ["X-Studio-Token": studio.server.token, "Origin": studio.base]
        var r = try await studio.request("/api/capture", method: "POST", body: "not json", headers: token)
        #expect(r.status == 400 && r.type.hasPrefix("application/json"))
        r = try await studio.request("/api/capture", method: "POST", body: #"{"mode":"video"}"#, headers: token)
        #expect(r.status == 400)
        r = try await studio.request("/api/capture", method: "POST", body: #"{"mode":"photo","bias":99}"#, headers: token)
        #expect(r.status == 400)
        r = try await studio.request("/api/capture", method: "POST", body: #"{"mode":"livePhoto"}"#, headers: token)
        #expect(r.status == 409, "a Live Photo needs the photo preset; this studio runs at VGA")
        r = try await studio.request("/api/capture", method: "POST", body: String(repeating: " ", count: 20_000), headers: token)
        #expect(r.status == 413)
    }

    @Test func everyFieldIsCheckedBeforeTheCameraIsTouched() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        #expect(try await studio.post("/api/mode", #"{"mode":"photo","device":"wide"}"#).status == 200)
        let refused: [(String, String, String)] = [
            ("/api/mode", #"{"mode":"photo","device":"nope","lighting":"indoor"}"#, "unknown device 'nope' (one of wide, tele, dual, front)"),
            ("/api/mode", #"{"device":"wide"}"#, "mode is missing"),
            ("/api/mode", #"{"mode":"depth","device":"wide"}"#, "depth needs a camera that measures it: dual or front"),
            ("/api/capture", #"{"mode":"photo","device":"ultrawide"}"#, "unknown device 'ultrawide' (one of wide, tele, dual, front)"),
            ("/api/capture", #"{"mode":"photo","device":7}"#, "device must be a string"),
            ("/api/capture", #"{"mode":"photo","lighting":"moon"}"#, "unknown lighting 'moon' (one of daylight, indoor, dim, dark)"),
            ("/api/capture", #"{"mode":"photo","bias":"x"}"#, "bias must be a number of EV"),
            ("/api/capture", #"{"mode":"photo","bias":true}"#, "bias must be a number of EV"),
            ("/api/capture", #"{"mode":"photo","flash":1}"#, "flash must be a string"),
            ("/api/capture", #"{"mode":"depth","device":"tele"}"#, "depth needs a camera that measures it: dual or front"),
            ("/api/capture", #"{"mode":"panorama"}"#, "unknown mode 'panorama' (one of photo, bracket, raw, depth, livePhoto)"),
        ]
        for (path, body, reason) in refused {
            let r = try await studio.post(path, body)
            #expect(r.status == 400 && studio.json(r.body)["error"] as? String == reason, "\(path) \(body): \(r.status) \(studio.json(r.body))")
        }
        // The wide camera's session is as it was: its next shot lands (it failed with "No active and enabled video
        // connection" when a refused device had stopped it).
        let shot = try await studio.shoot(#"{"mode":"photo","device":"wide","bias":-0.5}"#)
        #expect(shot.type == "done", "\(shot.message)")
        #expect(studio.server.log.all.count == 1)
    }

    /// The gallery is the library's: assets imported (or made elsewhere) are listed with the studio's captures,
    /// newest first, each with what can be shown of it.
    @Test func theGalleryListsTheWholeLibraryNewestFirst() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let turned = try StudioMediaTests.halves(orientation: 6, width: 720), plain = try StudioMediaTests.halves(orientation: 1)
        var imported: [String] = []
        try studio.server.library.performChangesAndWait {
            for (data, year) in [(plain, 2020.0), (turned, 2021.0)] {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, data: data, options: nil)
                request.creationDate = Date(timeIntervalSince1970: (year - 1970) * 365.25 * 86400)
                imported.append(String(request.placeholderForCreatedAsset!.localIdentifier.prefix(36)))
            }
        }
        let shot = try await studio.shoot(#"{"mode":"photo"}"#)
        #expect(shot.type == "done")
        let captures = studio.json(try await studio.request("/api/captures").body)["captures"] as? [[String: Any]] ?? []
        #expect(captures.map { $0["source"] as? String } == ["studio", "library", "library"])
        #expect(captures.map { $0["mode"] as? String } == ["photo", "photo", "photo"])
        #expect(captures.dropFirst().map { ($0["assets"] as? [String: String])?["photo"] } == [imported[1], imported[0]])
        #expect(captures.dropFirst().allSatisfy { ($0["events"] as? [Any])?.isEmpty == true && $0["device"] as? String == "" })
        // Shown upright: the orientation-6 import's thumbnail is portrait.
        let thumbnail = try JPEGDecoder.decode(try await studio.request("/api/assets/\(imported[1])/thumbnail.jpg").body)
        #expect(thumbnail.width == 180 && thumbnail.height == 360)
        let info = studio.json(try await studio.request("/api/assets/\(imported[0])/info").body)
        #expect((info["asset"] as? [String: Any])?["video"] as? Bool == false)
    }

    /// The gallery comes in pages, newest first: a cursor names where the next page starts, so an asset saved meanwhile
    /// (newer, at the top) neither repeats an entry nor pushes one out; a cursor whose entry was deleted goes on with
    /// the entries older than it. A limit beyond 1…500 or a cursor that is not one is a 400.
    @Test func theGalleryComesInPagesStableUnderInserts() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        func add(year: Double, seed: Int) throws -> String {
            var id = ""
            try studio.server.library.performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, data: try! StudioMediaTests.halves(orientation: 1, width: 32 + 2 * seed), options: nil)
                request.creationDate = Date(timeIntervalSince1970: (year - 1970) * 365.25 * 86400)
                id = String(request.placeholderForCreatedAsset!.localIdentifier.prefix(36))
            }
            return id
        }
        let ids = try (0..<5).map { try add(year: 2020 - Double($0), seed: $0) }     // newest first
        func page(_ query: String) async throws -> (ids: [String], total: Int?, next: String?) {
            let body = studio.json(try await studio.request("/api/captures?" + query).body)
            return ((body["captures"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }, body["total"] as? Int, body["next"] as? String)
        }
        let first = try await page("limit=2")
        #expect(first.ids == Array(ids[0..<2]) && first.total == 5)
        let cursor = try #require(first.next)
        let newer = try add(year: 2025, seed: 9)
        let encoded = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let second = try await page("limit=2&after=\(encoded)")
        #expect(second.ids == Array(ids[2..<4]) && second.total == 6, "\(second)")
        let last = try await page("limit=2&after=\(second.next?.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
        #expect(last.ids == [ids[4]] && last.next == nil)
        #expect(try await page("").ids == [newer] + ids, "no limit: the first 100")
        // The cursor's entry deleted: the next page starts with the entries older than it.
        let gone = try #require(studio.server.library.fetchAssets(withLocalIdentifiers: [ids[1] + PHAssetCreationRequest.identifierSuffix], options: nil).firstObject)
        try studio.server.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([gone] as NSArray) }
        #expect(try await page("limit=2&after=\(encoded)").ids == Array(ids[2..<4]))
        for bad in ["limit=0", "limit=501", "limit=x", "after=nonsense", "after=x%3Aabc"] {
            let r = try await studio.request("/api/captures?" + bad)
            #expect(r.status == 400 && r.type == "application/json", "\(bad): \(r.status)")
        }
    }

    /// A video's thumbnail and poster are its first frame as players show it (an upright phone's movie, stored landscape,
    /// portrait); a video FFmpeg cannot decode is a 422 JSON error, and the server goes on.
    @Test func aVideosThumbnailIsItsFirstFrameShownUpright() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let movie = studio.folder.appendingPathComponent("turned.mov"), broken = studio.folder.appendingPathComponent("broken.mov")
        try HalvesMovieFixture.make(at: movie, width: 96, height: 64, rotation: 90)
        // The media data zeroed: the header (what the library checks) reads, no frame decodes.
        var data = try Data(contentsOf: movie)
        let mdat = try #require(data.indices.dropLast(4).first { data[$0..<$0 + 4] == Data("mdat".utf8) })
        let end = mdat - 4 + data[(mdat - 4)..<mdat].reduce(0) { $0 << 8 | Int($1) }
        data.replaceSubrange((mdat + 4)..<end, with: Data(count: end - mdat - 4))
        try data.write(to: broken)
        var ids: [String] = []
        try studio.server.library.performChangesAndWait {
            for url in [movie, broken] {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .video, fileURL: url, options: nil)
                ids.append(String(request.placeholderForCreatedAsset!.localIdentifier.prefix(36)))
            }
        }
        for (path, side) in [("thumbnail.jpg", 360), ("photo.jpg", 2400)] {
            let r = try await studio.request("/api/assets/\(ids[0])/\(path)")
            #expect(r.status == 200 && r.type == "image/jpeg", "\(path): \(r.status)")
            let frame = try JPEGDecoder.decode(r.body)
            #expect(frame.width == 64 && frame.height == 96, "\(path) within \(side): \(frame.width)×\(frame.height)")
            // The stored left half (red) is on top once turned.
            let top = frame[32, 20, 0], bottom = frame[32, 76, 2]
            #expect(top > 200 && frame[32, 20, 2] < 60 && bottom > 200 && frame[32, 76, 0] < 60, "top red \(top), bottom blue \(bottom)")
        }
        let refused = try await studio.request("/api/assets/\(ids[1])/thumbnail.jpg")
        #expect(refused.status == 422 && refused.type == "application/json")
        #expect((studio.json(refused.body)["error"] as? String)?.contains("the video cannot be decoded") == true, "\(studio.json(refused.body))")
        // The movie named as imported, not by the library's stored (SHA-256) name.
        let stored = try #require((0..<2).lazy.flatMap { PHAssetResource.assetResources(for: studio.server.library.fetchAssets().object(at: $0)) }
            .first { $0.originalFilename == "broken.mov" })
        let storedName = try PHAssetResourceManager.default().fileURL(for: stored).deletingPathExtension().lastPathComponent
        let why = studio.json(refused.body)["error"] as? String ?? ""
        #expect(why.contains("broken.mov") && !why.contains(storedName), "\(why)")
        #expect(try await studio.request("/api/state").status == 200)
    }

    /// A Live Photo's movie is served as what it is (QuickTime) and in ranges, as browsers ask to play and seek it.
    @Test func moviesAreServedAsQuickTimeInRanges() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let pair = try LivePhotoPairFixture.make(in: studio.folder)
        let movie = try Data(contentsOf: pair.movie), n = movie.count
        var id = ""
        try studio.server.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: pair.still, options: nil)
            request.addResource(with: .pairedVideo, fileURL: pair.movie, options: nil)
            id = String(request.placeholderForCreatedAsset!.localIdentifier.prefix(36))
        }
        let path = "/api/assets/\(id)/live.mov"
        var r = try await studio.request(path)
        #expect(r.status == 200 && r.type == "video/quicktime" && r.body == movie)
        #expect(r.response.value(forHTTPHeaderField: "Accept-Ranges") == "bytes")
        #expect(n > 1000 && n < 999_999)
        for (range, expected) in [("bytes=0-99", 0..<100), ("bytes=-10", (n - 10)..<n), ("bytes=100-", 100..<n), ("bytes=2-999999", 2..<n)] {
            r = try await studio.request(path, headers: ["Range": range])
            #expect(r.status == 206 && r.body == movie.subdata(in: expected), "\(range): \(r.status) \(r.body.count) bytes")
            #expect(r.response.value(forHTTPHeaderField: "Content-Range") == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(n)")
        }
        r = try await studio.request(path, headers: ["Range": "bytes=\(n)-"])
        #expect(r.status == 416 && r.response.value(forHTTPHeaderField: "Content-Range") == "bytes */\(n)")
        for ignored in ["bytes=5-2", "bytes=0-1,5-6", "pages=1-2", "bytes=x-"] {
            r = try await studio.request(path, headers: ["Range": ignored])
            #expect(r.status == 200 && r.body == movie, "\(ignored)")
        }
        // Downloads resume too.
        r = try await studio.request("/api/assets/\(id)/files/0", headers: ["Range": "bytes=0-1"])
        #expect(r.status == 206 && r.body == Data([0xFF, 0xD8]))
    }

    /// Bytes this process has passed to read(2) and pread(2) so far (`rchar` of /proc/self/io).
    static func bytesRead() -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/io", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    /// A range of a large file is read from disk alone, not the file: 100 bytes at the end of a 1 GiB video (the stored
    /// movie extended in place, a hole on disk) come with their Content-Range and Content-Length, and the process reads
    /// about that much (its read count, /proc/self/io); past the end is still a 416.
    @Test(.enabled(if: FileManager.default.isReadableFile(atPath: "/proc/self/io"), "needs /proc/self/io"))
    func aRangeOfALargeFileIsReadAlone() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let movie = studio.folder.appendingPathComponent("movie.mov")
        try HalvesMovieFixture.make(at: movie)
        var id = ""
        try studio.server.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .video, fileURL: movie, options: nil)
            id = String(request.placeholderForCreatedAsset!.localIdentifier.prefix(36))
        }
        let asset = try #require(studio.server.library.fetchAssets(withLocalIdentifiers: [id + PHAssetCreationRequest.identifierSuffix], options: nil).firstObject)
        let stored = try PHAssetResourceManager.default().fileURL(for: try #require(PHAssetResource.assetResources(for: asset).first))
        let original = try Data(contentsOf: stored), n = 1 << 30
        let tail = Data((0..<100).map { UInt8($0 + 1) })
        let handle = try FileHandle(forWritingTo: stored)
        try handle.truncate(atOffset: UInt64(n - 100))
        try handle.seek(toOffset: UInt64(n - 100))
        try handle.write(contentsOf: tail)
        try handle.close()

        let path = "/api/assets/\(id)/video.mov"
        let before = Self.bytesRead()
        var r = try await studio.request(path, headers: ["Range": "bytes=\(n - 100)-"])
        let read = Self.bytesRead() - before
        #expect(r.status == 206 && r.body == tail && r.type == "video/quicktime", "\(r.status) \(r.body.count) bytes")
        #expect(r.response.value(forHTTPHeaderField: "Content-Range") == "bytes \(n - 100)-\(n - 1)/\(n)")
        #expect(r.response.value(forHTTPHeaderField: "Content-Length") == "100")
        #expect(read < 1 << 24, "\(read) bytes read to send 100")
        r = try await studio.request(path, headers: ["Range": "bytes=0-99"])
        #expect(r.status == 206 && r.body == original.prefix(100))
        r = try await studio.request(path, headers: ["Range": "bytes=\(n / 2)-\(n / 2 + 9)"])
        #expect(r.status == 206 && r.body == Data(count: 10), "the hole reads as zeros")
        r = try await studio.request(path, headers: ["Range": "bytes=\(n)-"])
        #expect(r.status == 416 && r.response.value(forHTTPHeaderField: "Content-Range") == "bytes */\(n)")
    }

    /// An asset's files download under one base name — IMG_x.jpg with IMG_x.dng, or with IMG_x.mov — so
    /// `opencapture library import` pairs them again as one RAW + JPEG or one Live Photo.
    @Test func downloadsShareABaseNameSoImportPairsThemAgain() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        #expect(try await studio.shoot(#"{"mode":"raw"}"#).type == "done")
        let captures = studio.json(try await studio.request("/api/captures").body)["captures"] as? [[String: Any]] ?? []
        let raw = try #require((captures.first?["assets"] as? [String: String])?["photo"])
        // A Live Photo whose movie was added from a file of another name (as the studio's own movies are).
        let pair = try LivePhotoPairFixture.make(in: studio.folder)
        let movieFile = studio.folder.appendingPathComponent("opencapture-studio-1234.mov")
        let still = studio.folder.appendingPathComponent("<i>x 1.jpg")
        try FileManager.default.moveItem(at: pair.movie, to: movieFile)
        try FileManager.default.moveItem(at: pair.still, to: still)
        var live = ""
        try studio.server.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: still, options: nil)
            request.addResource(with: .pairedVideo, fileURL: movieFile, options: nil)
            live = String(request.placeholderForCreatedAsset!.localIdentifier.prefix(36))
        }
        for (asset, extensions) in [(raw, ["jpg", "dng"]), (live, ["jpg", "mov"])] {
            let files = (studio.json(try await studio.request("/api/assets/\(asset)/info").body)["asset"] as? [String: Any])?["files"]
                as? [[String: Any]] ?? []
            let names = files.compactMap { $0["name"] as? String }
            #expect(names.map { URL(fileURLWithPath: $0).pathExtension } == extensions, "\(names)")
            #expect(Set(names.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }).count == 1, "\(names)")
            for (index, name) in names.enumerated() {
                let r = try await studio.request("/api/assets/\(asset)/files/\(index)")
                #expect(r.response.value(forHTTPHeaderField: "Content-Disposition") == "attachment; filename=\"\(name)\"")
            }
        }
        let files = (studio.json(try await studio.request("/api/assets/\(live)/info").body)["asset"] as? [String: Any])?["files"]
            as? [[String: Any]] ?? []
        #expect(files.map { $0["name"] as? String } == ["ix1.jpg", "ix1.mov"], "only safe characters reach a header")
        #expect(files.map { $0["original"] as? String } == ["<i>x 1.jpg", "opencapture-studio-1234.mov"])
    }

    /// The camera streams for the viewfinder only while someone watches: a client that closes its connection ends
    /// its subscription at the next frame (it outlived the client, and the camera kept streaming for nobody).
    @Test func theViewfinderStopsWhenItsLastViewerCloses() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let finder = studio.server.camera.viewfinder
        let first = try #require(studio.openStream("/api/viewfinder.mjpg", until: "Content-Type: image/jpeg"))
        let second = try #require(studio.openStream("/api/viewfinder.mjpg", until: "Content-Type: image/jpeg"))
        var streaming = await studio.server.camera.viewfinderIsInSession
        #expect(finder.subscriberCount == 2 && streaming)
        close(first)
        for _ in 0..<100 where finder.subscriberCount > 1 { try await Task.sleep(for: .milliseconds(20)) }
        streaming = await studio.server.camera.viewfinderIsInSession
        #expect(finder.subscriberCount == 1 && streaming, "the other viewer still watches")
        close(second)
        for _ in 0..<100 where finder.subscriberCount > 0 { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(finder.subscriberCount == 0)
        streaming = await studio.server.camera.viewfinderIsInSession
        #expect(!streaming, "nobody watches: the output is out of the session")
    }

    /// The front camera stores its pixels as the sensor reads them, tagged "mirror horizontal" (EXIF 2), as an iPhone
    /// does: every reader shows the photo mirrored, and so do the studio's thumbnail and depth map (its movies' pixels
    /// are mirrored, so a Live Photo's still and movie agree).
    @Test func aFrontPhotosThumbnailAndDepthAreMirroredAsItsOriginal() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let shot = try await studio.shoot(#"{"mode":"depth","device":"front"}"#)
        #expect(shot.type == "done", "\(shot.message)")
        let captures = studio.json(try await studio.request("/api/captures").body)["captures"] as? [[String: Any]] ?? []
        let asset = try #require((captures.first?["assets"] as? [String: String])?["photo"])
        let original = try await studio.request("/api/assets/\(asset)/files/0").body
        #expect(try ExifReader.read(jpeg: original).orientation == 2)
        let stored = try JPEGDecoder.decode(original)
        let thumbnail = try JPEGDecoder.decode(try await studio.request("/api/assets/\(asset)/thumbnail.jpg").body)
        #expect(thumbnail.width == 360 && thumbnail.height == 270)
        #expect((try? ExifReader.read(jpeg: try await studio.request("/api/assets/\(asset)/thumbnail.jpg").body))?.orientation ?? 1 == 1)
        // Column brightness profiles (16 bands): the thumbnail's runs as the stored photo's read right to left.
        let photo = Self.bands(stored), small = Self.bands(thumbnail)
        let mirrored = zip(small, photo.reversed()).map { abs($0 - $1) }.max() ?? 255
        let straight = zip(small, photo).map { abs($0 - $1) }.max() ?? 0
        #expect(mirrored < 8 && straight > 3 * mirrored, "mirrored \(mirrored), as stored \(straight): \(small) vs \(photo)")
        // The matte (and the depth map, turned by the same rule) shows as the photo does: pixel for pixel mirrored.
        let matte = try PNGCodec.decode(try await studio.request("/api/assets/\(asset)/matte.png").body)
        let storedMatte = try #require(try EmbeddedDepthReader.read(original).matte)
        #expect(matte.width == storedMatte.width && matte.height == storedMatte.height)
        var worst = 0
        for y in 0..<matte.height {
            for x in 0..<matte.width {
                let expected = Int((min(max(storedMatte.storage[y * matte.width + matte.width - 1 - x], 0), 1) * 255).rounded())
                worst = max(worst, abs(Int(matte.storage[3 * (y * matte.width + x)]) - expected))
            }
        }
        #expect(worst <= 1, "the matte as shown is the stored one mirrored")
        #expect(try await studio.request("/api/assets/\(asset)/depth.png").status == 200)
    }

    /// Mean value of each of 16 vertical bands (all channels).
    static func bands(_ image: Raster<UInt8>) -> [Int] {
        (0..<16).map { band in
            var sum = 0, n = 0
            for y in stride(from: 0, to: image.height, by: 2) {
                for x in (band * image.width / 16)..<((band + 1) * image.width / 16) {
                    for c in 0..<image.channels { sum += Int(image.storage[(y * image.width + x) * image.channels + c]) }
                    n += image.channels
                }
            }
            return sum / max(n, 1)
        }
    }

    @Test func noPathReachesAFileOutsideTheLibrary() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        for path in ["/api/assets/..%2F..%2F..%2Fetc%2Fpasswd/files/0", "/api/assets/../../etc/passwd",
                     "/api/assets/%2Fetc%2Fpasswd/photo.jpg", "/studio.css/../../../etc/passwd",
                     "/api/assets/00000000-0000-0000-0000-000000000000/files/0"] {
            let r = try await studio.request(path)
            #expect([400, 404].contains(r.status), "\(path): \(r.status)")
            #expect(!String(decoding: r.body, as: UTF8.self).contains("root:"))
        }
    }

    @Test func aShotStreamsItsStagesInOrderAndLandsInTheLibrary() async throws {
        let studio = try await Running()
        defer { studio.stop() }
        let events = studio.server.hub.subscribe().events
        let r = try await studio.post("/api/capture", #"{"mode":"raw"}"#)
        #expect(r.status == 202)
        let id = try #require(studio.json(r.body)["capture"] as? String)
        var names: [String] = []
        for await text in events {
            let event = studio.json(Data(text.utf8))
            guard event["capture"] as? String == id else { continue }
            names.append((event["name"] as? String) ?? (event["type"] as? String ?? ""))
            if ["done", "error"].contains(event["type"] as? String) { break }
        }
        #expect(names.first == "started" && names.last == "done", "\(names)")
        let stages = names.filter { ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishCapture"].contains($0) }
        #expect(stages == ["willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishCapture"])
        #expect(names.filter { $0 == "didFinishProcessingPhoto" }.count == 2, "RAW + JPEG: two photos")
        // The capture's photo and its RAW are one asset; its files download byte for byte.
        let captures = studio.json(try await studio.request("/api/captures").body)["captures"] as? [[String: Any]] ?? []
        let asset = try #require((captures.first?["assets"] as? [String: String])?["photo"])
        let info = studio.json(try await studio.request("/api/assets/\(asset)/info").body)
        let files = (info["asset"] as? [String: Any])?["files"] as? [[String: Any]] ?? []
        #expect(files.map { $0["type"] as? String } == ["photo", "alternatePhoto"])
        let thumbnail = try await studio.request("/api/assets/\(asset)/thumbnail.jpg")
        #expect(thumbnail.status == 200 && thumbnail.type == "image/jpeg" && thumbnail.body.prefix(2) == Data([0xFF, 0xD8]))
        let raw = try await studio.request("/api/assets/\(asset)/files/1")
        #expect(raw.status == 200 && raw.body.prefix(4) == Data([0x49, 0x49, 0x2A, 0x00]))
        let developed = try await studio.request("/api/assets/\(asset)/developed.jpg")
        #expect(developed.status == 200 && developed.body.prefix(2) == Data([0xFF, 0xD8]))
        #expect(try await studio.request("/api/assets/\(asset)/depth.png").status == 404)
    }
}
