import CaptureCore
import Testing
@testable import OpenCapture

/// `AVDepthData`: storage, conversions, map replacement and the test constructor.
@Suite struct AVDepthDataTests {
    private let calibration = CameraCalibration(focalLength: SIMD2(500, 500), principalPoint: SIMD2(160, 120),
                                                referenceDimensions: Size(width: 320, height: 240), pixelSize: 0.004)

    private func disparity(_ rows: [[Float]], type: OSType = kCVPixelFormatType_DisparityFloat16) throws -> AVDepthData {
        let map = DepthMap(values: Raster(width: rows[0].count, height: rows.count, storage: rows.flatMap { $0 }),
                           kind: .disparity, accuracy: .absolute, quality: .low, isFiltered: false, calibration: calibration)
        return try #require(AVDepthData(depthMap: map, pixelFormat: type))
    }

    @Test func engineInitialiserStoresTheRequestedTypeAndMetadata() throws {
        let data = try disparity([[0.1, 0.5, 2], [4, .nan, 0]])
        #expect(data.depthDataType == kCVPixelFormatType_DisparityFloat16)
        #expect(CVPixelBufferGetPixelFormatType(data.depthDataMap) == kCVPixelFormatType_DisparityFloat16)
        #expect(CVPixelBufferGetWidth(data.depthDataMap) == 3 && CVPixelBufferGetHeight(data.depthDataMap) == 2)
        // 0.1 is stored as the nearest half float, 0.099975586.
        #expect(sameValues(readBuffer(data.depthDataMap), [[0.099975586, 0.5, 2], [4, .nan, 0]]))
        #expect(data.depthDataQuality == .low && data.depthDataAccuracy == .absolute && !data.isDepthDataFiltered)
        #expect(data.cameraCalibrationData?.calibration == calibration)
        #expect(data.availableDepthDataTypes == [kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_DisparityFloat32,
                                                 kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DepthFloat32])
        // A disparity map asked for as depth is converted on the way in.
        let depth = try disparity([[0.5, 4]], type: kCVPixelFormatType_DepthFloat32)
        #expect(readBuffer(depth.depthDataMap) == [[2, 0.25]])
        // Other formats and empty maps give nil.
        let map = DepthMap(values: Raster(width: 1, height: 1, storage: [1]), kind: .depth, accuracy: .relative, isFiltered: true)
        #expect(AVDepthData(depthMap: map, pixelFormat: kCVPixelFormatType_32BGRA) == nil)
        let empty = DepthMap(values: Raster(width: 0, height: 0), kind: .depth, accuracy: .relative, isFiltered: true)
        #expect(AVDepthData(depthMap: empty, pixelFormat: kCVPixelFormatType_DepthFloat32) == nil)
    }

    @Test func disparityToDepthAndBackStaysWithinHalfFloatPrecision() throws {
        let values: [Float] = [0.013, 0.3, 0.7071, 1, 1.7, 3.14159, 9.5, 123.4]
        let original = try disparity([values])
        let stored = readBuffer(original.depthDataMap)[0]
        let depth = original.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32)
        #expect(depth.depthDataType == kCVPixelFormatType_DepthFloat32)
        #expect(readBuffer(depth.depthDataMap)[0] == stored.map { 1 / $0 }, "depth is the reciprocal of each stored value")
        let back = depth.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat16)
        #expect(back.depthDataType == kCVPixelFormatType_DisparityFloat16)
        for (a, b) in zip(readBuffer(back.depthDataMap)[0], values) {
            #expect(abs(a - b) <= b * 0x1p-10, "\(a) vs \(b): within half a half-float ulp of the stored value plus its rounding")
        }
        #expect(readBuffer(back.depthDataMap)[0] == stored, "half → float → reciprocal twice → half returns the same half floats")
        // Metadata and calibration carry over.
        #expect(back.depthDataQuality == .low && back.depthDataAccuracy == .absolute && !back.isDepthDataFiltered)
        #expect(back.cameraCalibrationData === original.cameraCalibrationData)
    }

    @Test func nanZeroAndInfinityConvertAsReciprocals() throws {
        let data = try disparity([[.nan, 0, .infinity, 2]], type: kCVPixelFormatType_DisparityFloat32)
        let depth = data.converting(toDepthDataType: kCVPixelFormatType_DepthFloat16)
        #expect(sameValues(readBuffer(depth.depthDataMap), [[.nan, .infinity, 0, 0.5]]))
        let disparityAgain = depth.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32)
        #expect(sameValues(readBuffer(disparityAgain.depthDataMap), [[.nan, 0, .infinity, 2]]))
        // Beyond the half-float range: a disparity of 1e-8 is 1e8 m → +∞; 1/70 000 m is a subnormal
        // half (240 · 2^-24); as disparity 1e-8 underflows to 0 and 70 000 overflows to +∞.
        let extreme = try disparity([[1e-8, 70_000]], type: kCVPixelFormatType_DisparityFloat32)
        #expect(readBuffer(extreme.converting(toDepthDataType: kCVPixelFormatType_DepthFloat16).depthDataMap)
                == [[.infinity, 240 * 0x1p-24]])
        #expect(readBuffer(extreme.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat16).depthDataMap) == [[0, .infinity]])
    }

    @Test func halfToFloatIsExactAndFloatToHalfRoundsToNearestEven() throws {
        let data = try disparity([[1 + 0x1p-11, 1 + 3 * 0x1p-11, 65504]], type: kCVPixelFormatType_DisparityFloat32)
        let half = data.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat16)
        #expect(readBuffer(half.depthDataMap) == [[1, 1 + 0x1p-9, 65504]])
        let float = half.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32)
        #expect(readBuffer(float.depthDataMap) == [[1, 1 + 0x1p-9, 65504]])
    }

    @Test func convertingToTheSameTypeReturnsTheReceiverAndAnUnavailableTypeIsReported() throws {
        let data = try disparity([[1, 2]])
        #expect(data.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat16) === data)
        var result: AVDepthData?
        let reports = DiagnosticsRecorder.reports(containing: "'BGRA' is not in availableDepthDataTypes") {
            result = data.converting(toDepthDataType: kCVPixelFormatType_32BGRA)
        }
        #expect(reports.count == 1)
        #expect(result === data, "Apple raises; OpenCapture reports and returns the receiver")
        #expect(DepthDataError.unsupportedDepthDataType(kCVPixelFormatType_32BGRA).description
                == "depth data type 'BGRA' is not in availableDepthDataTypes")
    }

    @Test func replacingTheMapDropsTheCalibrationAndRefusesOtherFormats() throws {
        let data = try disparity([[1, 2]])
        let newMap = try #require(makeBuffer([[5, 6, 7]], type: kCVPixelFormatType_DepthFloat32))
        let replaced = try data.replacingDepthDataMap(with: newMap)
        #expect(replaced.depthDataMap === newMap && replaced.depthDataType == kCVPixelFormatType_DepthFloat32)
        #expect(replaced.cameraCalibrationData == nil)
        #expect(replaced.depthDataQuality == .low && replaced.depthDataAccuracy == .absolute && !replaced.isDepthDataFiltered)
        let bgra = try #require(makeBuffer([[1, 2]], type: kCVPixelFormatType_32BGRA))
        #expect(throws: DepthDataError.unsupportedPixelFormat(kCVPixelFormatType_32BGRA)) { try data.replacingDepthDataMap(with: bgra) }
    }

    @Test func publicConstructorWrapsADepthBufferAndRefusesOthers() throws {
        let buffer = try #require(makeBuffer([[0.5, 1], [2, 4]], type: kCVPixelFormatType_DepthFloat16))
        let data = try AVDepthData(depthDataMap: buffer, depthDataAccuracy: .absolute)
        #expect(data.depthDataMap === buffer && data.depthDataType == kCVPixelFormatType_DepthFloat16)
        #expect(data.depthDataQuality == .high && data.depthDataAccuracy == .absolute && data.isDepthDataFiltered)
        #expect(data.cameraCalibrationData == nil)
        let disparity = data.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32)
        #expect(readBuffer(disparity.depthDataMap) == [[2, 1], [0.5, 0.25]])
        let matte = try #require(makeBuffer([[1]], type: kCVPixelFormatType_OneComponent8))
        #expect(throws: DepthDataError.unsupportedPixelFormat(kCVPixelFormatType_OneComponent8)) {
            try AVDepthData(depthDataMap: matte)
        }
    }

    @Test func engineViewReadsTheBufferAsItIsNow() throws {
        let data = try disparity([[1, 2]], type: kCVPixelFormatType_DisparityFloat32)
        let base = try #require(CVPixelBufferGetBaseAddress(data.depthDataMap))
        base.storeBytes(of: Float(8), toByteOffset: 4, as: Float.self)
        let map = data.depthMap
        #expect(map.values.storage == [1, 8] && map.kind == .disparity && map.accuracy == .absolute)
        #expect(map.quality == .low && !map.isFiltered && map.calibration == calibration)
    }
}
