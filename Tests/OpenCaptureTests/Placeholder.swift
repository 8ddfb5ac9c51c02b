import Testing
@testable import OpenCapture

@Test func OpenCaptureBuilds() {}
