import Testing
@testable import OpenCaptureStudio
@Suite struct StudioServerTests { @Test func routerBuilds() { _ = StudioServer(configuration: StudioConfiguration()).makeRouter() } }
