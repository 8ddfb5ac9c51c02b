import CaptureCore
import Foundation
import Testing
@testable import CameraSimulation

/// The render cache keeps planes between processes: exact round trips, misses on any mismatch, no trap on damage.
@Suite struct RenderCacheTests {
    /// A fresh cache folder in the system's temporary folder.
    static func scratchCache() throws -> RenderCache {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("opencapture-render-cache-\(UUID().uuidString)", isDirectory: true)
        return RenderCache(directory: folder)
    }

    static func planes(_ count: Int, _ offset: Float) -> (rate: [Float], flash: [Float], depth: [Float]) {
        ((0..<(3 * count)).map { Float($0) * 0.5 + offset }, (0..<count).map { Float($0) / 7 }, (0..<count).map { 1 + Float($0) })
    }

    @Test func planesRoundTripExactlyAndOnlyUnderTheirKey() throws {
        let cache = try Self.scratchCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let p = Self.planes(12, 3)
        cache.store(key: "a", width: 4, height: 3, rate: PlaneStorage(p.rate), flashRatio: PlaneStorage(p.flash), depth: PlaneStorage(p.depth))
        let loaded = try #require(cache.load(key: "a", width: 4, height: 3))
        #expect(loaded.rate.values == p.rate && loaded.flashRatio.values == p.flash && loaded.depth.values == p.depth)
        #expect(cache.load(key: "b", width: 4, height: 3) == nil)
        // Planes are mapped in place, so the header keeps them aligned.
        #expect(RenderCache.header(key: "a", width: 4, height: 3).bytes.count % 64 == 0)
        #expect(cache.load(key: "a", width: 3, height: 4) == nil)
        // No temporary file is left behind.
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(names.count == 1 && names[0].hasSuffix(".planes"))
    }

    @Test func aDamagedEntryIsAMissUntilTheNextStoreReplacesIt() throws {
        let cache = try Self.scratchCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let p = Self.planes(12, 0)
        cache.store(key: "k", width: 4, height: 3, rate: PlaneStorage(p.rate), flashRatio: PlaneStorage(p.flash), depth: PlaneStorage(p.depth))
        let url = cache.fileURL("k")
        let data = try Data(contentsOf: url)
        try data.prefix(data.count - 5).write(to: url)
        #expect(cache.load(key: "k", width: 4, height: 3) == nil)
        cache.store(key: "k", width: 4, height: 3, rate: PlaneStorage(p.rate), flashRatio: PlaneStorage(p.flash), depth: PlaneStorage(p.depth))
        #expect(cache.load(key: "k", width: 4, height: 3)?.depth.values == p.depth)
        // A file under the key's name holding another key (a hash collision, or anything else) is not read.
        cache.store(key: "other", width: 4, height: 3, rate: PlaneStorage(p.rate), flashRatio: PlaneStorage(p.flash), depth: PlaneStorage(p.depth))
        try FileManager.default.removeItem(at: url)
        try FileManager.default.moveItem(at: cache.fileURL("other"), to: url)
        #expect(cache.load(key: "k", width: 4, height: 3) == nil)
    }

    @Test func valuesRoundTripAndTrimmingKeepsTheNewest() throws {
        let cache = try Self.scratchCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        cache.storeValues(key: "af", [0.25, .infinity, 21, 0.7])
        #expect(cache.loadValues(key: "af", count: 4) == [0.25, .infinity, 21, 0.7])
        #expect(cache.loadValues(key: "af", count: 3) == nil)
        let p = Self.planes(1000, 0)
        cache.store(key: "old", width: 100, height: 10, rate: PlaneStorage(p.rate), flashRatio: PlaneStorage(p.flash), depth: PlaneStorage(p.depth))
        let old = cache.fileURL("old")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -100)], ofItemAtPath: old.path)
        cache.store(key: "new", width: 100, height: 10, rate: PlaneStorage(p.rate), flashRatio: PlaneStorage(p.flash), depth: PlaneStorage(p.depth))
        cache.trim(limit: 25_000)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(cache.load(key: "new", width: 100, height: 10) != nil)
    }

    @Test func theEnvironmentChoosesTheFolderOrTurnsItOff() {
        #expect(RenderCache.fromEnvironment(["OPENCAPTURE_RENDER_CACHE": "off", "HOME": "/home/u"]) == nil)
        #expect(RenderCache.fromEnvironment(["OPENCAPTURE_RENDER_CACHE": "/x/y"])?.directory.path == "/x/y")
        #expect(RenderCache.fromEnvironment(["XDG_CACHE_HOME": "/c", "HOME": "/home/u"])?.directory.path == "/c/opencapture/renders")
        #expect(RenderCache.fromEnvironment(["HOME": "/home/u"])?.directory.path == "/home/u/.cache/opencapture/renders")
        #expect(RenderCache.fromEnvironment([:]) == nil)
    }

    /// A camera reading an earlier camera's render makes the same frames, and its auto focus the same answer.
    @Test func aCachedRenderGivesTheSameFrames() throws {
        let cache = try Self.scratchCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let size = Size(width: 160, height: 120)
        var exposure = SensorExposure(size: size, duration: 1.0 / 60, iso: 200, seed: 5)
        exposure.focusDistance = 1.5
        let first = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: cache)
        let focus = first.autoFocus(pointOfInterest: SIMD2(0.5, 0.5), size: size, exposure: exposure)
        let frame = first.capture(exposure)
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(names.filter { $0.hasSuffix(".planes") }.count == 2, "sharp and defocused planes: \(names)")
        #expect(names.filter { $0.hasSuffix(".values") }.count == 1)
        #expect(names.filter { $0.hasSuffix(".pattern") }.count == 2, "a fixed pattern per readout size (the frame's, auto focus's): \(names)")
        let second = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: cache)
        #expect(second.autoFocus(pointOfInterest: SIMD2(0.5, 0.5), size: size, exposure: exposure) == focus)
        #expect(second.capture(exposure).bayer.storage == frame.bayer.storage)
        // Without a cache, the same frame too.
        let uncached = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: nil)
        #expect(uncached.capture(exposure).bayer.storage == frame.bayer.storage)
    }

    /// The fixed-pattern noise read back from the cache is the one drawn from the seed; another session seed has its own.
    @Test func theFixedPatternIsKeptPerSeed() throws {
        let cache = try Self.scratchCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let size = Size(width: 64, height: 48)
        let drawn = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: cache).fixedPattern(size: size)
        let read = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: cache).fixedPattern(size: size)
        let other = SimulatedCamera(module: .backWide, scene: .default, seed: 4, renderCache: cache).fixedPattern(size: size)
        #expect(read.values == drawn.values && drawn.count == 2 * 64 * 48)
        #expect(other.values != drawn.values)
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(names.filter { $0.hasSuffix(".pattern") }.count == 2)
        // A damaged entry is a miss: the pattern is drawn again, the same.
        for name in names where name.hasSuffix(".pattern") {
            let url = cache.directory.appendingPathComponent(name)
            try Data(try Data(contentsOf: url).prefix(100)).write(to: url)
        }
        let redrawn = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: cache).fixedPattern(size: size)
        #expect(redrawn.values == drawn.values)
    }

    /// Metering's radiance view is read back from the cache: the same metering in a new process, without a render.
    @Test func meteringReadsItsViewFromTheCache() throws {
        let cache = try Self.scratchCache()
        defer { try? FileManager.default.removeItem(at: cache.directory) }
        let size = Size(width: 320, height: 240)
        let metered = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: cache).meter(size: size, flash: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(names.filter { $0.hasSuffix(".planes") }.count == 1, "metering's view: \(names)")
        let again = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: cache).meter(size: size, flash: true)
        #expect(again == metered)
        // A damaged view (the same size and header; 0xFF, a NaN, over part of its radiance) is a miss: rendered again.
        let url = cache.directory.appendingPathComponent(try #require(names.first { $0.hasSuffix(".planes") }))
        var bytes = try Data(contentsOf: url)
        bytes.replaceSubrange((bytes.count / 2)..<(bytes.count / 2 + 4096), with: Data(repeating: 0xFF, count: 4096))
        try bytes.write(to: url)
        let redone = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: cache).meter(size: size, flash: true)
        #expect(redone == metered)
        #expect(try Data(contentsOf: url) != bytes, "stored again")
        let uncached = SimulatedCamera(module: .backWide, scene: .default, seed: 3, renderCache: nil).meter(size: size, flash: true)
        #expect(uncached == metered)
    }
}

extension RenderCacheTests {
    /// The checksum reads the bytes one after another: any split into pieces gives the same, any changed byte another.
    @Test func theChecksumDoesNotDependOnHowTheBytesAreSplit() {
        let bytes: [UInt8] = (0..<101).map { UInt8(($0 * 37) & 255) }
        bytes.withUnsafeBytes { whole in
            let reference = RenderCache.checksum([whole])
            for cut in [0, 1, 7, 8, 9, 50, 100, 101] {
                #expect(RenderCache.checksum([UnsafeRawBufferPointer(rebasing: whole[..<cut]),
                                              UnsafeRawBufferPointer(rebasing: whole[cut...])]) == reference)
            }
            #expect(RenderCache.checksum([UnsafeRawBufferPointer(rebasing: whole[..<100])]) != reference)
        }
        var changed = bytes
        changed[60] ^= 1
        #expect(changed.withUnsafeBytes { RenderCache.checksum([$0]) } != bytes.withUnsafeBytes { RenderCache.checksum([$0]) })
    }
}
