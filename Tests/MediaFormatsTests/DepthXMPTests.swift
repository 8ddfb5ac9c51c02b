import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

@Suite struct DepthXMPTests {
    @Test func depthPacketHasApplesFieldsAndParsesBack() throws {
        let (_, metadata) = try DepthAuxiliaryImage(map: DepthFixtures.disparity()).encoded()
        let packet = DepthXMP.packet(metadata)
        let text = String(decoding: packet, as: UTF8.self)
        #expect(text.contains("<apdi:AuxiliaryImageType>disparity</apdi:AuxiliaryImageType>"))
        #expect(text.contains("<apdi:StoredFormat>1278226488</apdi:StoredFormat>"))
        #expect(text.contains("<apdi:NativeFormat>1751411059</apdi:NativeFormat>"))
        #expect(text.contains("<depthData:DepthDataVersion>65541</depthData:DepthDataVersion>"))
        #expect(text.contains("<depthData:Filtered>True</depthData:Filtered>"))
        #expect(text.contains("<depthData:IntrinsicMatrixReferenceWidth>4032</depthData:IntrinsicMatrixReferenceWidth>"))
        // Our look-up tables are not Apple's polynomial: they go to OpenCapture's namespace only.
        #expect(!text.contains("LensDistortionCoefficients"))
        #expect(text.contains("ocDepth:LensDistortionLookupTable"))

        let parsed = try DepthXMP.parse(packet)
        #expect(parsed == metadata)
        #expect(parsed.calibration == DepthFixtures.calibration())
        #expect(parsed.calibration?.translation.x == -0.0101)
        #expect(parsed.depthKind == .disparity)
    }

    @Test func pinholeCalibrationWritesZeroPolynomials() throws {
        var c = DepthFixtures.calibration()
        c.lensDistortionLookupTable = []
        c.inverseLensDistortionLookupTable = []
        let text = String(decoding: DepthXMP.packet(AuxiliaryImageMetadata(calibration: c)), as: UTF8.self)
        #expect(text.contains("<depthData:LensDistortionCoefficients>"))
        #expect(!text.contains("ocDepth"))
        let parsed = try DepthXMP.parse(Data(text.utf8))
        #expect(parsed.lensDistortionCoefficients == Array(repeating: 0, count: 8))
        #expect(parsed.calibration == c)
    }

    @Test func mattePacket() throws {
        let packet = DepthXMP.packet(MatteAuxiliaryImage.metadata)
        let parsed = try DepthXMP.parse(packet)
        #expect(parsed.isPortraitEffectsMatte)
        #expect(parsed.portraitEffectsMatteVersion == 65537)
        #expect(parsed.storedFormat == FourCC.oneComponent8)
        #expect(parsed.depthKind == nil)
    }

    /// An iPhone-style packet in attribute form with other prefixes, polynomial coefficients and an xpacket wrapper.
    @Test func readsAttributeFormAndForeignPrefixes() throws {
        let xml = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:p="http://ns.apple.com/pixeldatainfo/1.0/" xmlns:dd="http://ns.apple.com/depthData/1.0/"
              p:AuxiliaryImageType="disparity" p:StoredFormat="1278226488" p:FloatMinValue="1.498047" p:FloatMaxValue="4.382812"
              dd:Accuracy="relative" dd:Filtered="False" dd:IntrinsicMatrixReferenceWidth="4032" dd:IntrinsicMatrixReferenceHeight="3024">
              <dd:IntrinsicMatrix><rdf:Seq><rdf:li>2742</rdf:li><rdf:li>0</rdf:li><rdf:li>0</rdf:li><rdf:li>0</rdf:li>
                <rdf:li>2742</rdf:li><rdf:li>0</rdf:li><rdf:li>2016</rdf:li><rdf:li>1512</rdf:li><rdf:li>1</rdf:li></rdf:Seq></dd:IntrinsicMatrix>
              <dd:LensDistortionCoefficients><rdf:Seq><rdf:li>0</rdf:li><rdf:li>0.6333219</rdf:li></rdf:Seq></dd:LensDistortionCoefficients>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            <?xpacket end="w"?>
            """
        let m = try DepthXMP.parse(Data(xml.utf8))
        #expect(m.depthKind == .disparity)
        #expect(m.floatMinValue == 1.498047 && m.floatMaxValue == 4.382812)
        #expect(m.isFiltered == false && m.accuracy == .relative)
        #expect(m.calibration?.focalLength == SIMD2(2742, 2742))
        #expect(m.calibration?.principalPoint == SIMD2(2016, 1512))
        #expect(m.calibration?.lensDistortionCenter == SIMD2(2016, 1512))
        #expect(m.lensDistortionCoefficients == [0, 0.6333219])
    }

    @Test(arguments: [
        "<x:xmpmeta", "not xml at all", "<a><b></a>",
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:apdi=\"http://ns.apple.com/pixeldatainfo/1.0/\"><apdi:StoredFormat>L008</apdi:StoredFormat></rdf:Description></rdf:RDF></x:xmpmeta>",
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:d=\"http://ns.apple.com/depthData/1.0/\"><d:IntrinsicMatrixReferenceWidth>4</d:IntrinsicMatrixReferenceWidth><d:IntrinsicMatrixReferenceHeight>3</d:IntrinsicMatrixReferenceHeight><d:IntrinsicMatrix><rdf:Seq><rdf:li>1</rdf:li></rdf:Seq></d:IntrinsicMatrix></rdf:Description></rdf:RDF></x:xmpmeta>",
    ])
    func malformedPacketsThrowTypedErrors(_ xml: String) {
        #expect(throws: MediaFormatError.self) { try DepthXMP.parse(Data(xml.utf8)) }
    }

    @Test func quantisationReservesZeroForHoles() throws {
        let map = DepthFixtures.disparity(width: 64, height: 48, holes: true)
        let (codes, m) = try DepthAuxiliaryImage(map: map).encoded()
        let range = try #require(map.finiteRange)
        let step = (m.floatMaxValue! - m.floatMinValue!) / 255
        #expect(abs(m.floatMinValue! + step - range.lowerBound) < 1e-6)
        let back = try DepthAuxiliaryImage.decoded(codes: codes, metadata: m)
        for (a, b) in zip(map.values.storage, back.values.storage) {
            if a.isNaN { #expect(b.isNaN) } else { #expect(abs(a - b) <= step / 2 + 1e-6) }
        }
        #expect(codes.storage.filter { $0 == 0 }.count == map.values.storage.filter(\.isNaN).count)
    }

    @Test(arguments: [(Float(9), Float(2)), (0, -2), (0, 3e38), (-1, 1)])
    func absurdValueRangesAreRefused(_ range: (Float, Float)) throws {
        let map = DepthMap(values: Raster(width: 2, height: 1, storage: [0.5, 1]), kind: .disparity, accuracy: .relative,
                           isFiltered: true)
        let (codes, encodedMetadata) = try DepthAuxiliaryImage(map: map).encoded()
        var m = encodedMetadata
        #expect(throws: Never.self) { try DepthAuxiliaryImage.decoded(codes: codes, metadata: m) }
        (m.floatMinValue, m.floatMaxValue) = range
        #expect(throws: MediaFormatError.self) { try DepthAuxiliaryImage.decoded(codes: codes, metadata: m) }
    }
}
