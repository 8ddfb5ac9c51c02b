import Foundation

/// One coded HEVC still picture split the way HEIF stores it: the parameter sets go into the
/// item's `hvcC` configuration property, the slice NAL units (4-byte length prefixes) into the
/// item data. SEI and other non-VCL units are dropped.
struct HEVCPicture {
    /// The `hvcC` box (HEVCDecoderConfigurationRecord, ISO/IEC 14496-15 §8.3.3).
    let configuration: [UInt8]
    /// Length-prefixed VCL NAL units.
    let data: [UInt8]

    /// Splits `stream`, a sequence of NAL units each preceded by a 4-byte big-endian length.
    init(lengthPrefixed stream: UnsafeRawBufferPointer, chromaFormat: UInt8 = 1, bitDepth: UInt8 = 8) throws {
        var parameterSets: [UInt8: [[UInt8]]] = [:]   // NAL type → units, in stream order
        var data: [UInt8] = []
        var i = 0
        while i < stream.count {
            guard i + 4 <= stream.count else { throw MediaFormatError.encoderFailed("HEVC stream ends inside a length") }
            let n = Int(stream[i]) << 24 | Int(stream[i + 1]) << 16 | Int(stream[i + 2]) << 8 | Int(stream[i + 3])
            guard n >= 2, i + 4 + n <= stream.count else { throw MediaFormatError.encoderFailed("HEVC NAL unit overruns the stream") }
            let unit = stream[(i + 4)..<(i + 4 + n)]
            let type = (unit.first! >> 1) & 0x3F
            switch type {
            case 0...31: data += stream[i..<(i + 4 + n)]
            case 32...34:
                if parameterSets[type, default: []].contains(where: { $0.elementsEqual(unit) }) == false {
                    parameterSets[type, default: []].append(Array(unit))
                }
            default: break
            }
            i += 4 + n
        }
        guard !data.isEmpty, let sps = parameterSets[33]?.first, parameterSets[32] != nil, parameterSets[34] != nil else {
            throw MediaFormatError.encoderFailed("HEVC stream lacks a VPS, SPS, PPS or slice")
        }
        self.data = data
        configuration = try Self.hvcC(sps: sps, parameterSets: parameterSets, chromaFormat: chromaFormat, bitDepth: bitDepth)
    }

    private static func hvcC(sps: [UInt8], parameterSets: [UInt8: [[UInt8]]], chromaFormat: UInt8, bitDepth: UInt8) throws -> [UInt8] {
        // profile_tier_level follows the 2-byte NAL header and one byte of SPS ids/flags:
        // 1 byte profile space/tier/idc, 4 compatibility flags, 6 constraint flags, 1 level.
        let rbsp = unescaped(sps, limit: 15)
        guard rbsp.count >= 15 else { throw MediaFormatError.encoderFailed("HEVC SPS is too short") }
        let profileTierLevel = Array(rbsp[3..<15])
        return BMFFWriter.box("hvcC") { w in
            w.u8(1)                                  // configurationVersion
            w.append(profileTierLevel)               // general_profile…general_level_idc
            w.u16(0xF000)                            // min_spatial_segmentation_idc 0
            w.u8(0xFC)                               // parallelismType 0
            w.u8(0xFC | chromaFormat)
            w.u8(0xF8 | (bitDepth - 8))              // luma
            w.u8(0xF8 | (bitDepth - 8))              // chroma
            w.u16(0)                                 // avgFrameRate
            w.u8(0x0F)                               // 1 temporal layer, nested, 4-byte lengths
            let types = parameterSets.keys.sorted()
            w.u8(UInt8(types.count))
            for type in types {
                let units = parameterSets[type]!
                w.u8(0x80 | type)                    // array_completeness 1
                w.u16(UInt16(units.count))
                for unit in units {
                    w.u16(UInt16(unit.count))
                    w.append(unit)
                }
            }
        }
    }

    /// The first `limit` bytes of `unit` with emulation-prevention bytes (00 00 03) removed.
    private static func unescaped(_ unit: [UInt8], limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        var zeros = 0
        for b in unit {
            if zeros >= 2, b == 3 { zeros = 0; continue }
            out.append(b)
            zeros = b == 0 ? zeros + 1 : 0
            if out.count == limit { break }
        }
        return out
    }
}
