/// Lossless JPEG (ITU T.81 process 14, "LJ92") for DNG Compression 7 tiles, which neither libtiff
/// nor libjpeg-turbo 2.1 can write. A Bayer tile is coded as two interleaved components of half
/// the width, so the left-neighbour predictor (selection value 1) predicts each photosite from the
/// same colour; one optimal Huffman table (Annex K.2) per tile; precision 16 bits.
enum LosslessJPEGEncoder {
    /// Encodes `width`×`height` samples (width even, every sample < 32768) read row by row from `pixels`.
    static func encode(_ pixels: UnsafePointer<UInt16>, rowStride: Int, width: Int, height: Int) -> [UInt8] {
        let components = 2, columns = width / components
        // Pass 1: the difference categories (SSSS) and their frequencies.
        var categories = [UInt8](repeating: 0, count: width * height)
        var frequency = [Int](repeating: 0, count: 17)
        var diffs = [Int32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = pixels + y * rowStride
            for x in 0..<width {
                let predictor: Int
                if x >= components { predictor = Int(row[x - components]) }
                else if y > 0 { predictor = Int(row[x - rowStride]) }
                else { predictor = 1 << 15 }
                let d = Int(row[x]) - predictor
                let ssss = d == 0 ? 0 : Int.bitWidth - abs(d).leadingZeroBitCount
                categories[y * width + x] = UInt8(ssss)
                diffs[y * width + x] = Int32(d)
                frequency[ssss] += 1
            }
        }
        let (bits, symbols) = huffmanTable(frequency)
        var code = [UInt16](repeating: 0, count: 17), length = [UInt8](repeating: 0, count: 17)
        var next: UInt16 = 0, k = 0
        for l in 1...16 {
            for _ in 0..<bits[l] {
                code[Int(symbols[k])] = next
                length[Int(symbols[k])] = UInt8(l)
                next += 1
                k += 1
            }
            next <<= 1
        }

        var out: [UInt8] = [0xFF, 0xD8]
        // SOF3: precision 16, height, columns, 2 components (id 0/1, no subsampling, table 0).
        out += [0xFF, 0xC3, 0x00, UInt8(8 + 3 * components), 16]
        out += [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(columns >> 8), UInt8(columns & 0xFF), UInt8(components)]
        for c in 0..<components { out += [UInt8(c), 0x11, 0] }
        // DHT: one lossless table (class 0, id 0).
        let dhtLength = 2 + 1 + 16 + symbols.count
        out += [0xFF, 0xC4, UInt8(dhtLength >> 8), UInt8(dhtLength & 0xFF), 0x00]
        out += (1...16).map { UInt8(bits[$0]) } + symbols
        // SOS: both components on table 0, predictor 1, Se 0, Ah/Al 0.
        out += [0xFF, 0xDA, 0, UInt8(6 + 2 * components), UInt8(components)]
        for c in 0..<components { out += [UInt8(c), 0x00] }
        out += [1, 0, 0]

        var writer = BitWriter(capacity: width * height)
        for i in 0..<(width * height) {
            let ssss = Int(categories[i])
            writer.put(UInt64(code[ssss]), Int(length[ssss]))
            if ssss > 0 && ssss < 16 {
                let d = Int(diffs[i])
                writer.put(UInt64(truncatingIfNeeded: d < 0 ? d - 1 : d) & ((1 << UInt64(ssss)) - 1), ssss)
            }
        }
        writer.flush()
        out += writer.bytes
        out += [0xFF, 0xD9]
        return out
    }

    /// Code-length counts (index 1…16) and symbols in code order, per ITU T.81 Annex K.2.
    private static func huffmanTable(_ frequency: [Int]) -> (bits: [Int], symbols: [UInt8]) {
        var freq = frequency + [1]             // symbol 17 reserves the all-ones code
        var codesize = [Int](repeating: 0, count: 18)
        var others = [Int](repeating: -1, count: 18)
        while true {
            var v1 = -1, v2 = -1
            for i in 0..<18 where freq[i] > 0 && (v1 < 0 || freq[i] <= freq[v1]) { v1 = i }
            for i in 0..<18 where freq[i] > 0 && i != v1 && (v2 < 0 || freq[i] <= freq[v2]) { v2 = i }
            if v2 < 0 { break }
            freq[v1] += freq[v2]
            freq[v2] = 0
            codesize[v1] += 1
            var j = v1
            while others[j] >= 0 { j = others[j]; codesize[j] += 1 }
            others[j] = v2
            codesize[v2] += 1
            j = v2
            while others[j] >= 0 { j = others[j]; codesize[j] += 1 }
        }
        var bits = [Int](repeating: 0, count: 40)
        for i in 0..<18 where codesize[i] > 0 { bits[codesize[i]] += 1 }
        var i = 39
        while i > 16 {
            while bits[i] > 0 {
                var j = i - 2
                while bits[j] == 0 { j -= 1 }
                bits[i] -= 2
                bits[i - 1] += 1
                bits[j + 1] += 2
                bits[j] -= 1
            }
            i -= 1
        }
        while bits[i] == 0 { i -= 1 }
        bits[i] -= 1                           // drop the reserved code
        var symbols: [UInt8] = []
        for size in 1...32 { for s in 0..<17 where codesize[s] == size { symbols.append(UInt8(s)) } }
        return (Array(bits[0...16]), symbols)
    }
}

/// MSB-first bit packing with JPEG byte stuffing (0xFF → 0xFF 0x00), padding with ones.
private struct BitWriter {
    var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var count = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    @inline(__always) mutating func put(_ value: UInt64, _ length: Int) {
        accumulator = accumulator << UInt64(length) | value
        count += length
        while count >= 8 {
            count -= 8
            let byte = UInt8(truncatingIfNeeded: accumulator >> UInt64(count))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
    }

    mutating func flush() {
        if count > 0 { put((1 << UInt64(8 - count)) - 1, 8 - count) }
    }
}
