import Testing
@testable import ImagePipeline

/// `LinearPlanes`: Floats stored as 16-bit codes and read back.
@Suite struct LinearPlanesTests {
    @Test(arguments: [1, 7, 8, 9, 13, 64])
    func valuesComeBackWithinHalfAStepAndClampAtTheRange(width: Int) {
        let planes = LinearPlanes(width: width, height: 2, minimum: -0.25, maximum: 2)
        let values = (0..<width).map { Float($0) / Float(max(1, width - 1)) * 1.9 - 0.2 }
        values.withUnsafeBufferPointer { planes.store($0.baseAddress!, plane: 1, row: 1) }
        for x in 0..<width {
            #expect(abs(planes.value(planes.row(1, 1)[x]) - values[x]) <= planes.step / 2 + 1e-6, "x \(x)")
        }
        let outside = [Float](repeating: 5, count: width) + [Float](repeating: -3, count: width)
        outside.withUnsafeBufferPointer {
            planes.store($0.baseAddress!, plane: 2, row: 0)
            planes.store($0.baseAddress! + width, plane: 2, row: 1)
        }
        #expect((0..<width).allSatisfy { planes.row(2, 0)[$0] == 65535 && planes.row(2, 1)[$0] == 0 })
        #expect(abs(planes.value(65535) - 2) < 1e-5 && abs(planes.value(0) + 0.25) < 1e-6)
    }
}
