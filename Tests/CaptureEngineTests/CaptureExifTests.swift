import CaptureCore
@testable import CaptureEngine
import Testing

/// The EXIF the engine records, against what iPhones write.
struct CaptureExifTests {
    /// SubjectArea is the auto-focus window, in the stored photo's pixels: at the default, centred point of interest an
    /// iPhone's 55 % × 44 % box (an iPhone XS and an iPhone SE write 2015 (or 2013) 1511 2217 1330 for 4032×3024), after a
    /// tap a small one around the point (753×756 of 4032×3024 on an iPhone 6s Plus); both scale with the photo. It was
    /// the point with a w/4 × h/4 box.
    @Test func subjectAreaIsTheAutoFocusWindowAsIPhonesWriteIt() {
        #expect(CaptureExif.subjectArea(pointOfInterest: [0.5, 0.5], photoSize: Size(width: 4032, height: 3024))
                == [2015, 1511, 2217, 1330])
        #expect(CaptureExif.subjectArea(pointOfInterest: [0.5, 0.5], photoSize: Size(width: 1920, height: 1080))
                == [959, 539, 1056, 475])
        #expect(CaptureExif.subjectArea(pointOfInterest: [0.25, 0.75], photoSize: Size(width: 4032, height: 3024))
                == [1007, 2267, 753, 756])
        // A point at the edge stays on the photo's last pixel.
        #expect(CaptureExif.subjectArea(pointOfInterest: [1, 0], photoSize: Size(width: 640, height: 480))
                == [639, 0, 119, 120])
    }
}
