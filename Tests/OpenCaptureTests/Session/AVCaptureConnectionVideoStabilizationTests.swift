@testable import OpenCapture
import Testing

/// Video stabilisation as a device without it reports it: declared, preferences kept, nothing active.
struct AVCaptureConnectionVideoStabilizationTests {
    static func movieConnection() throws -> (AVCaptureSession, AVCaptureConnection) {
        let session = AVCaptureSession()
        let device = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back))
        session.addInput(try AVCaptureDeviceInput(device: device))
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        return (session, try #require(movie.connection(with: .video)))
    }

    @Test func rawValuesAreApples() {
        #expect(AVCaptureVideoStabilizationMode.off.rawValue == 0)
        #expect(AVCaptureVideoStabilizationMode.standard.rawValue == 1)
        #expect(AVCaptureVideoStabilizationMode.cinematic.rawValue == 2)
        #expect(AVCaptureVideoStabilizationMode.cinematicExtended.rawValue == 3)
        #expect(AVCaptureVideoStabilizationMode.previewOptimized.rawValue == 4)
        #expect(AVCaptureVideoStabilizationMode.cinematicExtendedEnhanced.rawValue == 5)
        #expect(AVCaptureVideoStabilizationMode.auto.rawValue == -1)
    }

    @Test func noSimulatedFormatStabilizesVideo() throws {
        let (session, connection) = try Self.movieConnection()
        defer { withExtendedLifetime(session) {} }
        #expect(connection.isActive)
        #expect(!connection.isVideoStabilizationSupported)
        let device = try #require(connection.input?.device)
        for format in device.formats {
            #expect(format.isVideoStabilizationModeSupported(.off))
            #expect(!format.isVideoStabilizationModeSupported(.standard))
            #expect(!format.isVideoStabilizationModeSupported(.cinematic))
        }
    }

    /// Apple keeps the preference and reports the active mode, which is never `.auto` and here always `.off`.
    @Test func thePreferenceIsKeptAndNothingIsActive() throws {
        let (session, connection) = try Self.movieConnection()
        defer { withExtendedLifetime(session) {} }
        #expect(connection.isActive)
        #expect(connection.preferredVideoStabilizationMode == .off)
        for mode in AVCaptureVideoStabilizationMode.allCases {
            connection.preferredVideoStabilizationMode = mode
            #expect(connection.preferredVideoStabilizationMode == mode)
            #expect(connection.activeVideoStabilizationMode == .off)
        }
    }

    @Test @available(*, deprecated)
    func theDeprecatedFlagsFollowTheModes() throws {
        let (session, connection) = try Self.movieConnection()
        defer { withExtendedLifetime(session) {} }
        connection.enablesVideoStabilizationWhenAvailable = true
        #expect(connection.preferredVideoStabilizationMode == .auto)
        #expect(!connection.isVideoStabilizationEnabled)
        connection.enablesVideoStabilizationWhenAvailable = false
        #expect(connection.preferredVideoStabilizationMode == .off)
    }
}
