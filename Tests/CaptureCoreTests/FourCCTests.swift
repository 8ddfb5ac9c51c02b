import Testing
@testable import CaptureCore

@Suite struct FourCCTests {
    static let named: [(FourCC, String)] = [
        (.bgra32, "BGRA"), (.yuv420BiPlanarVideoRange, "420v"), (.yuv420BiPlanarFullRange, "420f"),
        (.bayer14RGGB, "rgg4"), (.bayer14GRBG, "grb4"), (.bayer14GBRG, "gbr4"), (.bayer14BGGR, "bgg4"),
        (.disparityFloat16, "hdis"), (.disparityFloat32, "fdis"), (.depthFloat16, "hdep"),
        (.depthFloat32, "fdep"), (.oneComponent8, "L008"),
    ]

    @Test func namedCodesRoundTripThroughText() {
        for (code, text) in Self.named {
            #expect(code.description == text)
            #expect(FourCC(text) == code)
            #expect(FourCC(code.description) == code)
        }
        #expect(Set(Self.named.map(\.0.rawValue)).count == Self.named.count)
    }

    @Test func bigEndianPacking() {
        #expect(FourCC.bgra32.rawValue == 0x4247_5241)
        #expect(FourCC("ftyp" as String)?.rawValue == 0x6674_7970)
        #expect(FourCC(rawValue: 0x6865_6963).description == "heic")
        let literal: FourCC = "ispe"
        #expect(literal.rawValue == 0x6973_7065)
    }

    @Test func nonPrintableCodesPrintTheirNumber() {
        #expect(FourCC(rawValue: 24).description == "24")          // kCVPixelFormatType_24RGB
        #expect(FourCC(rawValue: 0).description == "0")
        #expect(FourCC(rawValue: 0x4142_437F).description == String(0x4142_437F))
        #expect(FourCC(rawValue: 0x2020_2020).description == "    ")
    }

    @Test func rejectsAnythingButFourASCIICharacters() {
        #expect(FourCC("rgg4" as String)?.description == "rgg4")
        #expect(FourCC("toolong" as String) == nil)
        #expect(FourCC("abc" as String) == nil)
        #expect(FourCC("" as String) == nil)
        #expect(FourCC("aé" + "b" as String) == nil)       // four UTF-8 bytes, but not four ASCII characters
        #expect(FourCC("ab\u{80}" as String) == nil)
    }
}
