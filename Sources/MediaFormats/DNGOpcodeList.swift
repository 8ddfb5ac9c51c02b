import CaptureCore

/// DNG opcode lists (DNG 1.3 §7; the values of OpcodeList1/2/3, always big-endian whatever the file's byte order)
/// for the lens opcodes OpenCapture writes and applies: `WarpRectilinear` (ID 1: distortion and lateral chromatic
/// aberration, in OpcodeList3, after demosaicing) and `FixVignetteRadial` (ID 3: vignetting, in OpcodeList2, on the
/// linear raw data), as Android's DngCreator places its lens opcodes.
///
/// A list is a count, then per opcode its ID, the DNG version it needs, flags (bit 0: optional — a reader that does
/// not know it may skip it) and its parameters' byte count and bytes. Other opcodes are skipped when read.
public enum DNGOpcodeList {
    public static let warpRectilinearID: UInt32 = 1
    public static let fixVignetteRadialID: UInt32 = 3
    /// Longest list read (opcodes beyond it are ignored).
    static let maximumOpcodes = 256

    /// OpcodeList2's value for the lens's vignetting, or nil when it has none.
    public static func vignettingList(_ lens: LensCorrection) -> [UInt8]? {
        guard lens.hasVignetting else { return nil }
        var parameters = Writer()
        var k = Array(lens.vignetting.prefix(5))
        while k.count < 5 { k.append(0) }
        for value in k { parameters.double(value) }
        let centre = normalisedCentre(lens)
        parameters.double(centre.x)
        parameters.double(centre.y)
        return list([(fixVignetteRadialID, parameters.bytes)])
    }

    /// OpcodeList3's value for the lens's distortion and lateral chromatic aberration (one plane or three), or nil
    /// when it has neither.
    public static func warpList(_ lens: LensCorrection) -> [UInt8]? {
        guard lens.hasWarp else { return nil }
        var parameters = Writer()
        parameters.u32(UInt32(lens.radial.count == 3 ? 3 : 1))
        for k in lens.radial.prefix(3) {
            for i in 0..<4 { parameters.double(k[i]) }
            parameters.double(0)  // kt0, kt1: no tangential distortion
            parameters.double(0)
        }
        let centre = normalisedCentre(lens)
        parameters.double(centre.x)
        parameters.double(centre.y)
        return list([(warpRectilinearID, parameters.bytes)])
    }

    /// The IDs of the opcodes in a list, in order (empty when it cannot be read).
    public static func opcodeIDs(_ bytes: [UInt8]) -> [UInt32] {
        (try? entries(bytes).map(\.id)) ?? []
    }

    /// The lens correction the lists state for an image of `size`, nil when they state none. Tangential terms
    /// are ignored; malformed lists throw.
    public static func lensCorrection(list2: [UInt8]?, list3: [UInt8]?, size: Size) throws -> LensCorrection? {
        var radial: [SIMD4<Double>]?, vignetting: [Double] = [], centre: SIMD2<Double>?
        for list in [list2, list3].compactMap({ $0 }) {
            for entry in try entries(list) {
                var r = Reader(bytes: entry.parameters)
                switch entry.id {
                case warpRectilinearID where radial == nil:
                    let planes = try r.u32()
                    guard planes == 1 || planes == 3 else { throw MediaFormatError.invalidImage("WarpRectilinear with \(planes) planes") }
                    var values: [SIMD4<Double>] = []
                    for _ in 0..<planes {
                        let k = SIMD4(try r.double(), try r.double(), try r.double(), try r.double())
                        _ = try r.double(); _ = try r.double()
                        guard k[0] > 0.5, k[0] < 2 else { throw MediaFormatError.invalidImage("WarpRectilinear scale \(k[0])") }
                        values.append(k)
                    }
                    radial = values
                    centre = try r.centre(size)
                case fixVignetteRadialID where vignetting.isEmpty:
                    vignetting = try (0..<5).map { _ in try r.double() }
                    let c = try r.centre(size)
                    centre = centre ?? c
                default:
                    continue
                }
            }
        }
        guard radial != nil || !vignetting.isEmpty else { return nil }
        return LensCorrection(size: size, center: centre, radial: radial ?? [], vignetting: vignetting)
    }

    // MARK: Encoding

    private static func normalisedCentre(_ lens: LensCorrection) -> SIMD2<Double> {
        SIMD2(lens.center.x / Double(max(1, lens.size.width)), lens.center.y / Double(max(1, lens.size.height)))
    }

    private static func list(_ opcodes: [(id: UInt32, parameters: [UInt8])]) -> [UInt8] {
        var w = Writer()
        w.u32(UInt32(opcodes.count))
        for opcode in opcodes {
            w.u32(opcode.id)
            w.u32(0x0103_0000)  // DNG 1.3.0.0
            w.u32(1)  // optional
            w.u32(UInt32(opcode.parameters.count))
            w.bytes += opcode.parameters
        }
        return w.bytes
    }

    private struct Writer {
        var bytes: [UInt8] = []
        mutating func u32(_ v: UInt32) { for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) } }
        mutating func double(_ v: Double) {
            let bits = v.bitPattern
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        }
    }

    // MARK: Decoding

    private static func entries(_ bytes: [UInt8]) throws -> [(id: UInt32, parameters: [UInt8])] {
        var r = Reader(bytes: bytes)
        let count = try r.u32()
        var out: [(id: UInt32, parameters: [UInt8])] = []
        for _ in 0..<min(Int(count), maximumOpcodes) {
            let id = try r.u32()
            _ = try r.u32()  // version
            _ = try r.u32()  // flags
            let length = Int(try r.u32())
            out.append((id, try r.take(length)))
        }
        return out
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func take(_ n: Int) throws -> [UInt8] {
            guard n >= 0, n <= bytes.count - offset else { throw MediaFormatError.invalidImage("DNG opcode list ends early") }
            defer { offset += n }
            return Array(bytes[offset..<(offset + n)])
        }

        mutating func u32() throws -> UInt32 {
            try take(4).reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func double() throws -> Double {
            let value = Double(bitPattern: try take(8).reduce(0) { $0 << 8 | UInt64($1) })
            guard value.isFinite, abs(value) < 1e6 else { throw MediaFormatError.invalidImage("DNG opcode parameter \(value)") }
            return value
        }

        /// A normalised optical centre, in pixels of `size`.
        mutating func centre(_ size: Size) throws -> SIMD2<Double> {
            let x = try double(), y = try double()
            guard (0...1).contains(x), (0...1).contains(y) else { throw MediaFormatError.invalidImage("DNG opcode centre \(x), \(y)") }
            return SIMD2(x * Double(size.width), y * Double(size.height))
        }
    }
}
