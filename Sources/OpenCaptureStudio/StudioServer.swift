import CaptureCore
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import MediaFormats
import OpenCapture
import OpenCapturePhotos
import ServiceLifecycle

/// `opencapture studio`: a camera app in the browser, served by Hummingbird (OpenCapture addition).
///
/// The page (`/`) drives `/api`: `POST /api/capture` takes a shot through Apple's API on the
/// simulated camera, `/api/events` streams each capture's delegate callbacks and processing steps
/// (server-sent events) as they happen, `/api/captures` and `/api/assets/…` read the photo library
/// (thumbnails, browser-ready photos, depth maps, RAW developed on demand, EXIF, original files).
/// Assets are addressed by their identifier only — no request names a path on disk.
public struct StudioServer: Sendable {
    public let configuration: StudioConfiguration
    /// The token the page sends with state-changing requests (new each start).
    public let token: String
    let hub = StudioEventHub()
    let library: PHPhotoLibrary
    let log: StudioCaptureLog
    let camera: StudioCamera
    private let counter = Locked(0)
    /// Shots taken and not yet saved, by capture id: shutting down waits for them.
    private let inFlight = Locked<[String: Task<Void, Never>]>([:])

    public init(configuration: StudioConfiguration) {
        self.configuration = configuration
        token = UUID().uuidString
        library = configuration.libraryURL.map { PHPhotoLibrary(url: $0) } ?? PHPhotoLibrary.shared()
        log = StudioCaptureLog(folder: library.url)
        camera = StudioCamera(hub: hub, library: library, log: log, preset: configuration.preset)
    }

    /// Serves until SIGINT or SIGTERM (then shuts down cleanly); `onListening` gets the bound port. Before listening
    /// it opens the photo library (making one in a folder that has none) and reads the capture log: a library the
    /// studio cannot use — a damaged database, a file where the folder should be — throws `StudioStartError` now,
    /// as `library list` refuses it, instead of losing the first photo taken.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let app = Application(router: makeRouter(),
                              configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                                   serverName: "OpenCapture Studio"),
                              onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) })
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: library.url.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw StudioStartError(description: "\(library.url.path) is a file, not a photo library folder (--library)")
        }
        do {
            try library.performChangesAndWait {}
        } catch {
            throw StudioStartError(description: error.localizedDescription)
        }
        if let notice = try log.load() { app.logger.warning("\(notice)") }
        do {
            try await app.runService()
            // (A shot whose shutter was pressed is saved before the process ends.)
            let pending = inFlight.withLock { Array($0.values) }
            if !pending.isEmpty { app.logger.info("waiting for \(pending.count) capture(s) to be saved") }
            for task in pending { await task.value }
            app.logger.info("stopped")
        } catch let error as IOError where error.errnoCode == EADDRINUSE || error.errnoCode == EADDRNOTAVAIL {
            throw StudioStartError(description: error.errnoCode == EADDRINUSE
                ? "port \(configuration.port) is in use on \(configuration.host) (another studio or server listens there): "
                    + "choose another with --port, or 0 for a free one"
                : "cannot listen on \(configuration.host):\(configuration.port): the address is not this machine's (--host)")
        } catch is SocketAddressError.UnknownHost {
            // A name that does not resolve: said plainly, not as NIO's "SocketAddressError.UnknownHost …".
            throw StudioStartError(description: "cannot listen on '\(configuration.host)': no address has that name (--host)")
        }
    }

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.middlewares.add(StudioGuard(token: token, listeningHost: configuration.host))
        router.get("/") { _, _ in StudioServer.text(StudioPage.html(token: token), type: "text/html; charset=utf-8") }
        router.get("/studio.css") { _, _ in StudioServer.text(StudioPage.css, type: "text/css; charset=utf-8") }
        router.get("/studio.js") { _, _ in StudioServer.text(StudioPage.script, type: "text/javascript; charset=utf-8") }
        router.get("/api/state") { _, _ in StudioServer.json(state()) }
        router.get("/api/events") { _, _ in events() }
        router.get("/api/viewfinder.mjpg") { _, _ in try await viewfinder() }
        router.get("/api/captures") { request, _ in
            let query = request.uri.queryParameters
            return StudioServer.json(try galleryPage(limit: query["limit"].map(String.init), after: query["after"].map(String.init)))
        }
        router.post("/api/capture") { request, context in try await capture(request, context: context) }
        router.post("/api/mode") { request, _ in try await selectMode(request) }
        router.get("/api/assets/:id/thumbnail.jpg") { _, context in
            let asset = try asset(context)
            return StudioServer.data(try StudioMedia.naming(asset) { try StudioServer.picture(of: asset, maxSide: 360) }, type: "image/jpeg")
        }
        router.get("/api/assets/:id/photo.jpg") { _, context in
            let asset = try asset(context)
            return StudioServer.data(try StudioMedia.naming(asset) { try StudioServer.picture(of: asset, maxSide: 2400) }, type: "image/jpeg")
        }
        router.get("/api/assets/:id/depth.png") { _, context in
            let asset = try asset(context)
            return StudioServer.data(try StudioMedia.naming(asset) { try StudioMedia.depthPNG(try StudioMedia.data(of: asset)) }, type: "image/png")
        }
        router.get("/api/assets/:id/matte.png") { _, context in
            let asset = try asset(context)
            return StudioServer.data(try StudioMedia.naming(asset) { try StudioMedia.mattePNG(try StudioMedia.data(of: asset)) }, type: "image/png")
        }
        router.get("/api/assets/:id/portrait.jpg") { _, context in
            let asset = try asset(context)
            return StudioServer.data(try StudioMedia.naming(asset) {
                try StudioMedia.jpeg(try StudioMedia.portraitJPEG(try StudioMedia.data(of: asset)), maxSide: 2400)
            }, type: "image/jpeg")
        }
        router.get("/api/assets/:id/developed.jpg") { _, context in
            let asset = try asset(context)
            return StudioServer.data(try StudioMedia.naming(asset, .alternatePhoto) {
                try StudioMedia.jpeg(try StudioMedia.data(of: asset, type: .alternatePhoto), maxSide: 2400)
            }, type: "image/jpeg")
        }
        router.get("/api/assets/:id/info") { _, context in
            let asset = try asset(context)
            // A photo's facts, or a video's (an asset imported from a movie alone has no photo).
            let primary = try StudioMedia.naming(asset) { try StudioMedia.data(of: asset, type: asset.mediaType == .video ? .video : .photo) }
            return StudioServer.json(["asset": StudioServer.describe(asset, photo: primary), "facts": StudioMedia.facts(primary)])
        }
        router.get("/api/assets/:id/live.mov") { request, context in
            let asset = try asset(context)
            guard let movie = PHAssetResource.assetResources(for: asset).first(where: { $0.type == .pairedVideo }) else {
                throw StudioError(status: 404, "not a Live Photo")
            }
            return try await StudioMedia.naming(movie) {
                try await StudioServer.ranged(movie, type: StudioMedia.mimeType(of: movie), request: request, context: context)
            }
        }
        router.get("/api/assets/:id/video.mov") { request, context in
            let asset = try asset(context)
            guard let movie = PHAssetResource.assetResources(for: asset).first(where: { $0.type == .video }) else {
                throw StudioError(status: 404, "not a video")
            }
            return try await StudioMedia.naming(movie) {
                try await StudioServer.ranged(movie, type: StudioMedia.mimeType(of: movie), request: request, context: context)
            }
        }
        router.get("/api/assets/:id/files/:index") { request, context in
            let asset = try asset(context)
            let resources = PHAssetResource.assetResources(for: asset)
            guard let index = context.parameters.get("index", as: Int.self), resources.indices.contains(index) else {
                throw StudioError(status: 404, "no such file")
            }
            var response = try await StudioMedia.naming(resources[index]) {
                try await StudioServer.ranged(resources[index], type: "application/octet-stream", request: request, context: context)
            }
            response.headers[.contentDisposition] = "attachment; filename=\"\(StudioServer.downloadNames(resources)[index])\""
            return response
        }
        return router
    }

    // MARK: Handlers

    func state() -> [String: Any] {
        [
            "token": token,
            "library": library.url.path,
            "preset": configuration.preset.rawValue,
            "devices": StudioCamera.devices.map { ["id": $0.id, "label": $0.label, "depth": $0.depth] },
            "lightings": SimulatedLighting.allCases.map(\.rawValue),
            "lighting": configuration.lighting.rawValue,
            "modes": StudioMode.allCases.map { mode -> [String: Any] in
                let reason = mode.unavailableReason(preset: configuration.preset)
                var entry: [String: Any] = ["id": mode.rawValue, "label": mode.label, "available": reason == nil]
                if let reason { entry["reason"] = reason }
                return entry
            },
            "viewfinder": ["available": true, "url": "/api/viewfinder.mjpg",
                           "reason": "Live from the camera's stream (about 12 frames a second, a third of the stream's size)."],
        ]
    }

    /// The request's body as a JSON object: 413 beyond the size limit, 400 when it is not a JSON object.
    func jsonBody(_ request: Request) async throws -> [String: Any] {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: configuration.maxBodySize)
        } catch {
            throw StudioError(status: 413, "the request body is larger than \(configuration.maxBodySize) bytes")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any] else {
            throw StudioError(status: 400, "the body must be a JSON object")
        }
        return object
    }

    /// Starts a shot (202 with its id); how it went comes over `/api/events`, and a failure also in the server's log.
    func capture(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let shot = try shot(from: try await jsonBody(request), modeRequired: false)
        let id = "capture-\(counter.withLock { $0 += 1; return $0 })-\(UUID().uuidString.prefix(8))"
        let camera = camera, hub = hub, logger = context.logger, inFlight = inFlight
        inFlight.withLock { tasks in
            tasks[id] = Task {
                do {
                    _ = try await camera.take(shot, id: id)
                } catch {
                    let message = (error as? StudioError)?.reason ?? "\(error)"
                    logger.error("capture \(id) (\(shot.mode.rawValue), \(shot.device)) failed: \(message)")
                    hub.publish(["type": "error", "capture": id, "message": message])
                }
                _ = inFlight.withLock { $0.removeValue(forKey: id) }
            }
        }
        return StudioServer.json(["capture": id], status: 202)
    }

    /// The page chose a mode: the camera gets ready for it (Live Photo capture on only in the Live Photo mode,
    /// so the stream runs, and keeps its 1.5 s of history, only then).
    func selectMode(_ request: Request) async throws -> Response {
        let shot = try shot(from: try await jsonBody(request), modeRequired: true)
        try await camera.prepare(for: shot)
        return StudioServer.json(["mode": shot.mode.rawValue])
    }

    /// The shot a request body asks for, every field checked before anything happens: a wrong name, type or value
    /// is a 400 naming the field, a mode this preset lacks a 409, so a refused request leaves the camera as it was.
    /// Absent fields take their defaults (mode photo, the dual camera for depth else the wide one, the studio's
    /// lighting, flash off, bias 0).
    func shot(from object: [String: Any], modeRequired: Bool) throws -> StudioCamera.Shot {
        func string(_ key: String) throws -> String? {
            guard let value = object[key] else { return nil }
            guard let text = value as? String else { throw StudioError(status: 400, "\(key) must be a string") }
            return text
        }
        let modeName = try string("mode")
        if modeRequired && modeName == nil { throw StudioError(status: 400, "mode is missing") }
        guard let mode = StudioMode(rawValue: modeName ?? "photo") else {
            throw StudioError(status: 400, "unknown mode '\(modeName ?? "")' (one of \(StudioMode.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let deviceName = try string("device") ?? (mode == .depth ? "dual" : "wide")
        guard let device = StudioCamera.devices.first(where: { $0.id == deviceName }) else {
            throw StudioError(status: 400, "unknown device '\(deviceName)' (one of \(StudioCamera.devices.map(\.id).joined(separator: ", ")))")
        }
        let lightingName = try string("lighting") ?? configuration.lighting.rawValue
        guard let lighting = SimulatedLighting(rawValue: lightingName) else {
            throw StudioError(status: 400,
                              "unknown lighting '\(lightingName)' (one of \(SimulatedLighting.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let flash: AVCaptureDevice.FlashMode
        switch try string("flash") ?? "off" {
        case "off": flash = .off
        case "on": flash = .on
        case "auto": flash = .auto
        default: throw StudioError(status: 400, "flash must be off, on or auto")
        }
        var bias = 0.0
        if let value = object["bias"] {
            // JSON numbers only: a string ("x", "1") or a boolean (an NSNumber of type "c") is refused, not read as 0 or 1.
            guard let number = value as? NSNumber, !(value is String), String(cString: number.objCType) != "c" else {
                throw StudioError(status: 400, "bias must be a number of EV")
            }
            bias = number.doubleValue
        }
        guard bias.isFinite, abs(bias) <= 8 else { throw StudioError(status: 400, "bias must be between −8 and 8 EV") }
        if mode == .depth && !device.depth {
            throw StudioError(status: 400, "depth needs a camera that measures it: \(StudioCamera.devices.filter(\.depth).map(\.id).joined(separator: " or "))")
        }
        if let reason = mode.unavailableReason(preset: configuration.preset) { throw StudioError(status: 409, reason) }
        return StudioCamera.Shot(mode: mode, device: deviceName, lighting: lighting, flash: flash, bias: Float(bias))
    }

    /// The viewfinder as Motion JPEG (`multipart/x-mixed-replace`), for as long as the client watches: when a write
    /// fails — the client closed the connection — or the client reads no frame for `StudioViewfinder.stallLimit`
    /// seconds, the subscription ends and the camera stops streaming unless someone else watches.
    func viewfinder() async throws -> Response {
        let finder = camera.viewfinder
        let camera = camera, lighting = configuration.lighting
        let unwatched: @Sendable () async -> Void = { try? await camera.updateViewfinder(defaultLighting: lighting) }
        let (id, frames) = finder.subscribe(onStall: { Task { await unwatched() } })
        let stop: @Sendable () async -> Void = {
            finder.end(id)
            await unwatched()
        }
        do {
            try await camera.updateViewfinder(defaultLighting: lighting)
        } catch {
            await stop()
            throw error
        }
        var headers = HTTPFields()
        headers[.contentType] = "multipart/x-mixed-replace; boundary=frame"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            do {
                try await withGracefulShutdownHandler {
                    for await jpeg in frames {
                        var part = ByteBuffer(string: "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n")
                        part.writeBytes(jpeg)
                        part.writeString("\r\n")
                        try await writer.write(part)
                    }
                } onGracefulShutdown: {
                    finder.end(id)
                }
            } catch {
                // The client went away: without this the subscription outlived it, and the camera kept streaming.
                await stop()
                throw error
            }
            await stop()
            try await writer.finish(nil)
        })
    }

    func events() -> Response {
        let (id, stream) = hub.subscribe()
        let hub = hub
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": connected\n\n"))
            // Ends with the client, or when SIGINT/SIGTERM starts the server's graceful shutdown (which
            // would otherwise wait for this never-ending response).
            try await withGracefulShutdownHandler {
                for await event in stream {
                    try await writer.write(ByteBuffer(string: "data: \(event)\n\n"))
                }
            } onGracefulShutdown: {
                hub.end(id)
            }
            try await writer.finish(nil)
        })
    }

    /// The gallery: every asset of the library, newest first. A studio capture's assets are one entry (a bracket's
    /// frames with their fusion) with its mode, camera and timeline; any other asset — imported, or made by another
    /// app — is an entry of its own (`source` "library"), its mode what it is (photo, livePhoto, depth, video).
    func captures() -> [[String: Any]] {
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: false)]
        let all = library.fetchAssets(with: options)
        let assets = all.objects(at: IndexSet(0..<all.count))
        let known = Set(assets.map(\.localIdentifier))
        let records = log.all
        var entries: [(date: Double, entry: [String: Any])] = records.compactMap { record in
            let present = record.assets.filter { known.contains($0.value) }
            guard !present.isEmpty else { return nil }
            let date = record.date.timeIntervalSince1970
            return (date, [
                "id": record.id, "mode": record.mode, "device": record.device, "date": date, "source": "studio",
                "assets": present.mapValues { StudioServer.shortID($0) },
                "events": record.events.map { ["name": $0.name, "start": $0.start, "end": $0.end, "detail": $0.detail ?? ""] },
            ])
        }
        let logged = Set(records.flatMap(\.assets.values))
        for asset in assets where !logged.contains(asset.localIdentifier) {
            let id = StudioServer.shortID(asset.localIdentifier)
            let date = (asset.creationDate ?? asset.modificationDate)?.timeIntervalSince1970 ?? 0
            let mode = asset.mediaType == .video ? "video" : asset.mediaSubtypes.contains(.photoLive) ? "livePhoto"
                : asset.mediaSubtypes.contains(.photoDepthEffect) ? "depth" : "photo"
            entries.append((date, ["id": id, "mode": mode, "device": "", "date": date, "source": "library",
                                   "assets": [mode == "video" ? "video" : "photo": id], "events": [[String: Any]]()]))
        }
        // Newest first; entries of one date keep their order (captures as logged, then assets as fetched).
        return entries.enumerated()
            .sorted { $0.element.date != $1.element.date ? $0.element.date > $1.element.date : $0.offset < $1.offset }
            .map(\.element.entry)
    }

    /// The largest page `/api/captures` gives, and the page size when none is asked for.
    static let maxPageSize = 500, defaultPageSize = 100

    /// One page of the gallery (`captures()`'s order, newest first): `limit` entries (1…500, 100 by default) after the
    /// entry `after` names — the `next` cursor of the page before, absent for the first page — with `next` when more
    /// follow, and the gallery's `total`. The cursor names an entry and its date, not a position, so captures saved
    /// meanwhile (newer, at the top) neither repeat nor push entries out of the pages that follow; if that entry is
    /// gone since, the page starts at the first entry older than it.
    func galleryPage(limit text: String?, after cursor: String?) throws -> [String: Any] {
        var limit = Self.defaultPageSize
        if let text {
            guard let value = Int(text), (1...Self.maxPageSize).contains(value) else {
                throw StudioError(status: 400, "limit must be a whole number from 1 to \(Self.maxPageSize)")
            }
            limit = value
        }
        let all = captures()
        var start = 0
        if let cursor {
            guard let colon = cursor.firstIndex(of: ":"), let date = Double(cursor[..<colon]), date.isFinite else {
                throw StudioError(status: 400, "after must be the next cursor of a gallery page")
            }
            let id = String(cursor[cursor.index(after: colon)...])
            if let index = all.firstIndex(where: { $0["id"] as? String == id }) {
                start = index + 1
            } else {
                start = all.firstIndex { ($0["date"] as? Double ?? 0) < date } ?? all.count
            }
        }
        let page = Array(all[start..<min(all.count, start + limit)])
        var result: [String: Any] = ["captures": page, "total": all.count]
        if start + page.count < all.count, let last = page.last, let id = last["id"] as? String, let date = last["date"] as? Double {
            result["next"] = "\(date):\(id)"
        }
        return result
    }

    /// The asset named by the `:id` path parameter (the UUID part of a local identifier), or a 400/404.
    func asset(_ context: BasicRequestContext) throws -> PHAsset {
        let id = context.parameters.get("id") ?? ""
        guard id.count == 36, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { throw StudioError(status: 400, "not an asset identifier") }
        guard let asset = library.fetchAssets(withLocalIdentifiers: [id.uppercased() + PHAssetCreationRequest.identifierSuffix], options: nil)
            .firstObject else {
            throw StudioError(status: 404, "no such asset")
        }
        return asset
    }

    // MARK: Responses

    /// What shows an asset, as a JPEG whose longer side is at most `side`: its photo, or a video's first frame.
    static func picture(of asset: PHAsset, maxSide side: Int) throws -> Data {
        guard asset.mediaType == .video else { return try StudioMedia.jpeg(try StudioMedia.data(of: asset), maxSide: side) }
        guard let movie = PHAssetResource.assetResources(for: asset).first(where: { $0.type == .video }) else {
            throw StudioError(status: 404, "the asset has no video resource")
        }
        return try StudioMedia.videoJPEG(movie, maxSide: side)
    }

    static func shortID(_ localIdentifier: String) -> String { String(localIdentifier.prefix(36)) }

    static func describe(_ asset: PHAsset, photo: Data) -> [String: Any] {
        let resources = PHAssetResource.assetResources(for: asset)
        return [
            "id": shortID(asset.localIdentifier), "width": asset.pixelWidth, "height": asset.pixelHeight,
            "date": asset.creationDate?.timeIntervalSince1970 ?? 0,
            "live": asset.mediaSubtypes.contains(.photoLive), "depth": asset.mediaSubtypes.contains(.photoDepthEffect),
            "video": asset.mediaType == .video,
            "matte": (try? EmbeddedDepthReader.describe(photo))?.matteSize != nil,
            "files": zip(resources, downloadNames(resources)).enumerated().map { i, file in
                ["index": i, "type": "\(file.0.type)", "name": file.1, "original": file.0.originalFilename,
                 "uti": file.0.uniformTypeIdentifier] as [String: Any]
            },
        ]
    }

    /// The names an asset's files download as: each its own extension on the primary file's name (IMG_1.jpg with
    /// IMG_1.mov, or with IMG_1.dng), so `opencapture library import` pairs a Live Photo or a RAW + JPEG again, as it
    /// pairs an iPhone's export; a second file of an extension already used keeps its own name. Letters, digits,
    /// ".", "_" and "-" only (the name goes in a header).
    static func downloadNames(_ resources: [PHAssetResource]) -> [String] {
        func clean(_ name: String) -> String { name.filter { $0.isLetter || $0.isNumber || "._-".contains($0) } }
        func split(_ name: String) -> (base: String, ext: String) {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
            return (String(name[..<dot]), String(name[name.index(after: dot)...]))
        }
        let primary = resources.first { [.photo, .video, .audio].contains($0.type) } ?? resources.first
        let base = primary.map { split(clean($0.originalFilename)).base } ?? ""
        var used = Set<String>()
        return resources.map { resource in
            let own = clean(resource.originalFilename), ext = split(own).ext
            let name = base.isEmpty || ext.isEmpty || used.contains(ext.lowercased()) ? own : base + "." + ext
            used.insert(ext.lowercased())
            return name.isEmpty ? "file" : name
        }
    }

    static func json(_ object: Any, status: Int = 200) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        var response = Self.data(data, type: "application/json")
        response.status = HTTPResponse.Status(code: status)
        return response
    }

    static func text(_ text: String, type: String) -> Response { data(Data(text.utf8), type: type) }

    /// What one `Range: bytes=…` header asks of a file of `count` bytes (first-last, first-, or -suffix): a part of it,
    /// nothing (it starts beyond the end), or the whole file — without a header, or for several ranges or a header it
    /// cannot read, as HTTP allows.
    enum ByteRange: Equatable {
        case whole
        case part(ClosedRange<Int>)
        case beyondEnd
    }

    static func byteRange(_ header: String?, count: Int) -> ByteRange {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return .whole }
        let first = Int(spec[0].trimmingCharacters(in: .whitespaces)), last = Int(spec[1].trimmingCharacters(in: .whitespaces))
        let lower: Int, upper: Int
        switch (first, last) {
        case let (first?, last?) where first <= last: (lower, upper) = (first, min(last, count - 1))
        case let (first?, nil) where spec[1].isEmpty: (lower, upper) = (first, count - 1)
        case let (nil, suffix?) where spec[0].isEmpty && suffix > 0: (lower, upper) = (max(0, count - suffix), count - 1)
        default: return .whole
        }
        // (Checked before any range is formed: from here lower ≤ upper < count.)
        return lower < count ? .part(lower...upper) : .beyondEnd
    }

    /// A stored file that honours one `Range` (see `byteRange`): 206 with its Content-Range, 416 when it starts beyond
    /// the end, else the whole file (200). Only the bytes sent are read, from disk as they are sent, in chunks
    /// (Hummingbird's `FileIO`), so a long movie is never held in memory. Browsers ask for ranges to play and seek movies.
    static func ranged(_ resource: PHAssetResource, type: String, request: Request, context: BasicRequestContext) async throws -> Response {
        let url: URL, count: Int
        do {
            url = try PHAssetResourceManager.default().fileURL(for: resource)
            count = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        } catch {
            throw StudioError(status: 500, "\(error)")
        }
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[.acceptRanges] = "bytes"
        switch byteRange(request.headers[.range], count: count) {
        case .whole:
            return Response(status: .ok, headers: headers, body: try await FileIO().loadFile(path: url.path, context: context))
        case .part(let range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(count)"
            return Response(status: .partialContent, headers: headers,
                            body: try await FileIO().loadFile(path: url.path, range: range, context: context))
        case .beyondEnd:
            var refused = Self.json(["error": "the range starts beyond the file's \(count) bytes"], status: 416)
            refused.headers[.contentRange] = "bytes */\(count)"
            return refused
        }
    }

    static func data(_ data: Data, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
