import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import OpenCapture

/// The ImageIO dictionary round trip of `AVDepthData` and `AVPortraitEffectsMatte`, and reading
/// depth back from files through `CGImageSourceCopyAuxiliaryDataInfoAtIndex`.
@Suite struct AuxiliaryDataDictionaryTests {
    private let calibration = CameraCalibration(focalLength: SIMD2(500, 502), principalPoint: SIMD2(161, 119),
                                                referenceDimensions: Size(width: 320, height: 240), pixelSize: 0.004)

    @Test(arguments: [kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_DepthFloat32])
    func depthDataRoundTripsThroughItsDictionary(_ type: OSType) throws {
        let map = DepthMap(values: Raster(width: 3, height: 2, storage: [0.25, 0.5, 2, 4, .nan, 1]), kind: .disparity,
                           accuracy: .absolute, quality: .low, isFiltered: false, calibration: calibration)
        let original = try #require(AVDepthData(depthMap: map, pixelFormat: type))
        var auxType: NSString?
        let dictionary = try #require(original.dictionaryRepresentation(forAuxiliaryDataType: &auxType))
        let isDisparity = type == kCVPixelFormatType_DisparityFloat16
        #expect(auxType as String? == (isDisparity ? kCGImageAuxiliaryDataTypeDisparity : kCGImageAuxiliaryDataTypeDepth))
        let description = try #require(dictionary[kCGImageAuxiliaryDataInfoDataDescription] as? [AnyHashable: Any])
        #expect(description["Width"] as? Int == 3 && description["Height"] as? Int == 2)
        #expect(description["BytesPerRow"] as? Int == 3 * (isDisparity ? 2 : 4))
        #expect(description["PixelFormat"] as? Int == Int(type))
        let back = try AVDepthData(fromDictionaryRepresentation: dictionary)
        #expect(back.depthDataType == type)
        #expect(sameValues(readBuffer(back.depthDataMap), readBuffer(original.depthDataMap)))
        #expect(back.depthDataAccuracy == .absolute && back.depthDataQuality == .low && !back.isDepthDataFiltered)
        let intrinsics = try #require(back.cameraCalibrationData?.calibration)
        #expect(intrinsics.focalLength == calibration.focalLength && intrinsics.principalPoint == calibration.principalPoint)
        #expect(intrinsics.referenceDimensions == calibration.referenceDimensions)
    }

    @Test func matteRoundTripsThroughItsDictionary() throws {
        let matte = try #require(AVPortraitEffectsMatte(matte: Raster(width: 4, height: 1, storage: [0, 0.5, 1, 0.2])))
        var auxType: NSString?
        let dictionary = try #require(matte.dictionaryRepresentation(forAuxiliaryDataType: &auxType))
        #expect(auxType as String? == kCGImageAuxiliaryDataTypePortraitEffectsMatte)
        let back = try AVPortraitEffectsMatte(fromDictionaryRepresentation: dictionary)
        #expect(readBuffer(back.mattingImage) == readBuffer(matte.mattingImage))
        // A matte's dictionary is not depth, nor a depth map's a matte.
        #expect(throws: DepthDataError.self) { try AVDepthData(fromDictionaryRepresentation: dictionary) }
        let depth = try #require(AVDepthData(depthMap: DepthMap(values: Raster(width: 1, height: 1, storage: [1]), kind: .depth,
                                                                accuracy: .absolute, isFiltered: true),
                                             pixelFormat: kCVPixelFormatType_DepthFloat16))
        let depthDictionary = try #require(depth.dictionaryRepresentation(forAuxiliaryDataType: nil))
        #expect(throws: DepthDataError.self) { try AVPortraitEffectsMatte(fromDictionaryRepresentation: depthDictionary) }
    }

    @Test func damagedDictionariesThrowTypedErrors() throws {
        let map = DepthMap(values: Raster(width: 2, height: 2, storage: [1, 2, 3, 4]), kind: .disparity,
                           accuracy: .relative, isFiltered: true)
        let data = try #require(AVDepthData(depthMap: map, pixelFormat: kCVPixelFormatType_DisparityFloat32))
        let good = try #require(data.dictionaryRepresentation(forAuxiliaryDataType: nil))
        func damaged(_ change: (inout [AnyHashable: Any]) -> Void) -> [AnyHashable: Any] {
            var copy = good
            change(&copy)
            return copy
        }
        func describing(_ key: String, _ value: Any) -> [AnyHashable: Any] {
            damaged { d in
                var description = d[kCGImageAuxiliaryDataInfoDataDescription] as! [AnyHashable: Any]
                description[key] = value
                d[kCGImageAuxiliaryDataInfoDataDescription] = description
            }
        }
        let cases: [[AnyHashable: Any]] = [
            [:],
            damaged { $0[kCGImageAuxiliaryDataInfoData] = "not data" },
            damaged { $0[kCGImageAuxiliaryDataInfoData] = Data(count: 3) },
            damaged { $0[kCGImageAuxiliaryDataInfoDataDescription] = nil },
            damaged { $0[kCGImageAuxiliaryDataInfoMetadata] = Data("<x:xmpmeta".utf8) },
            describing("Width", Int.max),
            describing("Height", -1),
            describing("BytesPerRow", 1),
            describing("PixelFormat", Int(kCVPixelFormatType_32BGRA)),
            describing("PixelFormat", "hdis"),
        ]
        for dictionary in cases {
            #expect(throws: DepthDataError.self) { try AVDepthData(fromDictionaryRepresentation: dictionary) }
        }
    }

    /// Apple's read-back pattern on a HEIC an iPhone wrote (a dual-camera portrait; see Tests/Fixtures/MediaFormats/Real).
    @Test func anIPhonesPortraitReadsBackAsAppleReadsIt() throws {
        let url = SharedData.repositoryRoot.appendingPathComponent("Tests/Fixtures/MediaFormats/Real/iphone-dual-portrait-pug.heic")
        let source = try #require(CGImageSourceCreateWithURL(url as CFURL, nil))
        let info = try #require(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeDisparity)
            as? [AnyHashable: Any])
        let depth = try AVDepthData(fromDictionaryRepresentation: info)
        #expect(depth.depthDataType == kCVPixelFormatType_DisparityFloat16)
        #expect(depth.depthDataAccuracy == .relative && depth.isDepthDataFiltered && depth.depthDataQuality == .high)
        #expect(CVPixelBufferGetWidth(depth.depthDataMap) == 768 && CVPixelBufferGetHeight(depth.depthDataMap) == 576)
        let calibration = try #require(depth.cameraCalibrationData)
        #expect(calibration.intrinsicMatrixReferenceDimensions == CGSize(width: 4032, height: 3024))
        #expect(abs(calibration.intrinsicMatrix.columns.0.x - 3032.594) < 0.01)
        let metres = try #require(depth.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32).depthDataMap.depthValues())
        // 1 / 4.38 … 1 / 1.50 (1/m): the pug and its surroundings between about 0.23 and 0.67 m.
        #expect(metres.storage.allSatisfy { $0 > 0.22 && $0 < 0.68 })
        #expect(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypePortraitEffectsMatte) == nil)
    }

    @Test(arguments: [AVVideoCodecType.hevc, .jpeg])
    func depthAndMatteReadBackFromTheFileAsAppleReadsThem(_ codec: AVVideoCodecType) async throws {
        let rig = DepthCaptureTests.depthRig(.builtInTrueDepthCamera, position: .front, matte: true)
        let result = try await rig.capture(DepthCaptureTests.depthSettings(codec: codec, matte: true))
        let photo = try #require(result.photos.first)
        let file = try #require(photo.fileDataRepresentation())
        let delivered = try #require(photo.depthData)
        let source = try #require(CGImageSourceCreateWithData(file as CFData, nil))
        let info = try #require(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeDisparity)
            as? [AnyHashable: Any])
        let read = try AVDepthData(fromDictionaryRepresentation: info)
        #expect(read.depthDataType == delivered.depthDataType)
        #expect(read.depthDataAccuracy == .absolute && read.isDepthDataFiltered == delivered.isDepthDataFiltered)
        #expect(read.cameraCalibrationData?.intrinsicMatrixReferenceDimensions == delivered.cameraCalibrationData?.intrinsicMatrixReferenceDimensions)
        let a = try #require(read.depthDataMap.depthValues()), b = try #require(delivered.depthDataMap.depthValues())
        let finite = b.storage.filter(\.isFinite)
        let step = (try #require(finite.max()) - (try #require(finite.min()))) / 255
        var worst: Float = 0
        for (x, y) in zip(a.storage, b.storage) where x.isFinite && y.isFinite { worst = max(worst, abs(x - y)) }
        // 8-bit codes in the file (lossless in HEIC, lossy JPEG in JPEG), then half floats.
        #expect(worst <= step * (codec == .hevc ? 0.6 : 2.6) + 0.002, "worst \(worst), step \(step)")
        // The file holds disparity, so depth is not there; the matte is.
        #expect(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypeDepth) == nil)
        let matteInfo = try #require(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 0, kCGImageAuxiliaryDataTypePortraitEffectsMatte)
            as? [AnyHashable: Any])
        let matte = try AVPortraitEffectsMatte(fromDictionaryRepresentation: matteInfo)
        #expect(CVPixelBufferGetWidth(matte.mattingImage) == CVPixelBufferGetWidth(try #require(photo.portraitEffectsMatte).mattingImage))
        // Not an image, or an index past the first image: nil, no trap.
        #expect(CGImageSourceCreateWithData(Data() as CFData, nil) == nil)
        let junk = try #require(CGImageSourceCreateWithData(Data("not an image".utf8) as CFData, nil))
        #expect(CGImageSourceCopyAuxiliaryDataInfoAtIndex(junk, 0, kCGImageAuxiliaryDataTypeDisparity) == nil)
        #expect(CGImageSourceCopyAuxiliaryDataInfoAtIndex(source, 1, kCGImageAuxiliaryDataTypeDisparity) == nil)
    }
}
