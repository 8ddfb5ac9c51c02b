import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

/// A dual-camera portrait HEIC an iPhone wrote (Tests/Fixtures/MediaFormats/Real, see its README): the reader
/// meets what a phone really writes, not only OpenCapture's own files.
@Suite struct RealIPhoneDepthTests {
    static let url = RepositoryPaths.fixtures.appendingPathComponent("Real/iphone-dual-portrait-pug.heic")

    @Test func readsTheIPhonesDisparityMapAndCalibration() throws {
        let data = try Data(contentsOf: Self.url)
        let read = try EmbeddedDepthReader.read(data)
        let depth = try #require(read.depth)
        // heif-info: 768×576 uniform disparity, d-min 1.498047, d-max 4.382812.
        #expect(depth.size == Size(width: 768, height: 576))
        #expect(depth.kind == .disparity && depth.accuracy == .relative && depth.isFiltered)
        let m = try #require(read.depthMetadata)
        #expect(m.floatMinValue == 1.498047 && m.floatMaxValue == 4.382812)
        let finite = depth.values.storage.filter(\.isFinite)
        #expect(finite.count == 768 * 576)
        let lowest = try #require(finite.min()), highest = try #require(finite.max())
        #expect(lowest >= 1.498 && highest <= 4.383 && highest - lowest > 1)
        // Its XMP calibration: fx = fy = 3032.594 px of 4032×3024, principal point (1988.45, 1512.31), 1.9 µm pixels.
        let calibration = try #require(depth.calibration)
        #expect(calibration.referenceDimensions == Size(width: 4032, height: 3024))
        #expect(abs(calibration.focalLength.x - 3032.594) < 0.01 && abs(calibration.focalLength.y - 3032.594) < 0.01)
        #expect(abs(calibration.principalPoint.x - 1988.451) < 0.01 && abs(calibration.principalPoint.y - 1512.307) < 0.01)
        #expect(abs(calibration.pixelSize - 0.0019) < 1e-6)
        #expect(read.matte == nil)   // this portrait has a gain map but no portrait matte
    }

    @Test func itsStructureIsWhatOurWriterWrites() throws {
        let s = try HEIFStructure.parse(Data(contentsOf: Self.url))
        #expect(s.primary.type == "grid" && s.width == 4032 && s.height == 3024)
        let depth = try #require(s.auxiliaryImages.first { $0.type == HEIFEncoder.depthAuxiliaryURN })
        #expect(depth.item.type == "hvc1" && depth.item.hidden && depth.xmp != nil)
        #expect(depth.item.rotation == s.primary.rotation)
        let sei = try #require(DepthRepresentationInfo(auxCSubtype: depth.subtype))
        #expect(sei.type == .uniformDisparity)
        #expect(abs(sei.dMin! - 1.498047) < 1e-5 && abs(sei.dMax! - 4.382812) < 1e-5)
    }
}
