import ArgumentParser
import OpenCapture

/// `opencapture devices`: the simulated cameras and their formats.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "List the simulated cameras and their formats.")

    func run() throws {
        let discovery = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInWideAngleCamera, .builtInTelephotoCamera, .builtInDualCamera, .builtInTrueDepthCamera],
            mediaType: .video, position: .unspecified)
        for device in discovery.devices {
            let position = device.position == .front ? "front" : "back"
            print("\(device.localizedName)  [\(DeviceChoice.name(of: device.deviceType)), \(position)]")
            print("  f/\(device.lensAperture)  \(device.focalLength) mm  flash: \(device.hasFlash ? "yes" : "no")"
                  + (device.isVirtualDevice ? "  constituents: \(device.constituentDevices.map(\.localizedName).joined(separator: ", "))" : ""))
            for format in device.formats {
                let d = CMVideoFormatDescriptionGetDimensions(format.formatDescription)
                let hr = format.highResolutionStillImageDimensions
                let exposure = "\(formatSeconds(format.minExposureDuration.seconds))–\(formatSeconds(format.maxExposureDuration.seconds))"
                print("  \(d.width)×\(d.height)  photo up to \(hr.width)×\(hr.height)  ISO \(Int(format.minISO))–\(Int(format.maxISO))  exposure \(exposure)  \(Int(format.videoFieldOfView.rounded()))° FOV")
            }
        }
    }
}

/// "1/60 s" for short exposures, "0.5 s" for long ones ("?" for a value that is not a positive duration).
func formatSeconds(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds > 1e-9 else { return "? s" }
    return seconds >= 0.5 ? "\(seconds) s" : "1/\(Int((1 / seconds).rounded())) s"
}
