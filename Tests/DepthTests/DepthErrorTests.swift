import Depth
import Testing

@Suite struct DepthErrorTests {
    @Test func describesEachCase() {
        #expect(DepthError.mismatchedInputs("left 4×4, right 2×2").description == "mismatched inputs: left 4×4, right 2×2")
        #expect(DepthError.invalidParameter("max disparity 0").description == "invalid parameter: max disparity 0")
        #expect(DepthError.noData("all NaN").description == "no usable data: all NaN")
    }
}
