import Testing
@testable import CameraSimulation

@Test func CameraSimulationBuilds() {}
