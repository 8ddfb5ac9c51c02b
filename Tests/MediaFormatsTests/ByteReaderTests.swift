import Foundation
import Testing
@testable import MediaFormats

@Suite struct ByteReaderTests {
    @Test func readsBothByteOrders() throws {
        let bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let be = ByteReader(bytes), le = ByteReader(bytes, byteOrder: .littleEndian)
        #expect(try be.u16(0) == 0x0102 && le.u16(0) == 0x0201)
        #expect(try be.u32(1) == 0x0203_0405 && le.u32(1) == 0x0504_0302)
        #expect(try be.u64(0) == 0x0102_0304_0506_0708 && le.u64(0) == 0x0807_0605_0403_0201)
        #expect(try be.unsigned(2, size: 2) == 0x0304 && be.unsigned(0, size: 0) == 0)
        #expect(try be.fourCC(0) == "\u{1}\u{2}\u{3}\u{4}")
        #expect(be.matches([3, 4], at: 2) && !be.matches([3, 4], at: 7))
    }

    @Test func outOfRangeReadsThrowTruncated() {
        let r = ByteReader([1, 2, 3])
        #expect(throws: MediaFormatError.truncated) { try r.u32(0) }
        #expect(throws: MediaFormatError.truncated) { try r.u16(2) }
        #expect(throws: MediaFormatError.truncated) { try r.u8(-1) }
        #expect(throws: MediaFormatError.truncated) { try r.slice(Int.max, 2) }
        #expect(throws: MediaFormatError.self) { try r.unsigned(0, size: 3) }
        #expect(!r.contains(1, Int.max) && !r.contains(-1, 1) && r.contains(3, 0))
    }
}
