import CaptureCore
import Testing
@testable import CameraSimulation

@Suite struct CameraModuleReadoutTests {
    /// The 35 mm equivalent follows the photo's diagonal on the sensor: the 4:3 photo has the module's, a 16:9 crop of
    /// the same width a longer one (diagonals 5040 and 4626 px: × 1.0895), sizes scale out, taller shapes keep it.
    @Test func equivalentFocalLengthFollowsThePhotosDiagonal() {
        let wide = CameraModule.backWide
        #expect(wide.focalLength35mmEquivalent(forPhoto: Size(width: 4032, height: 3024)) == wide.focalLength35mmEquivalent)
        let crop = wide.focalLength35mmEquivalent(forPhoto: Size(width: 4032, height: 2268))
        #expect(abs(crop - 28 * 5040 / 4626.08) < 0.01, "\(crop)")
        #expect(abs(wide.focalLength35mmEquivalent(forPhoto: Size(width: 1920, height: 1080)) - crop) < 0.01)
        #expect(wide.focalLength35mmEquivalent(forPhoto: Size(width: 352, height: 288)) == wide.focalLength35mmEquivalent)
        #expect(wide.focalLength35mmEquivalent(forPhoto: Size(width: 0, height: 0)) == wide.focalLength35mmEquivalent)
        let tele = CameraModule.backTelephoto
        #expect(abs(tele.focalLength35mmEquivalent(forPhoto: Size(width: 1920, height: 1080)) - 56 * 1.0895) < 0.01)
    }
}
