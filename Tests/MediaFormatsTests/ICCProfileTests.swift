import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

@Suite struct ICCProfileTests {
    @Test(arguments: ColorSpace.allCases)
    func headerAndDescription(_ space: ColorSpace) {
        let icc = [UInt8](ICCProfile.data(for: space))
        let size = Int(icc[0]) << 24 | Int(icc[1]) << 16 | Int(icc[2]) << 8 | Int(icc[3])
        #expect(size == icc.count && size % 4 == 0 && size < 1024)
        #expect(Array(icc[36..<40]) == Array("acsp".utf8))
        #expect(Array(icc[12..<24]) == Array("mntrRGB XYZ ".utf8))
        #expect(ICCProfile.description(of: Data(icc)) == (space == .sRGB ? "sRGB IEC61966-2.1" : "Display P3"))
    }

    @Test func bradfordMapsWhiteToD50() {
        let d65 = ColorSpace.displayP3.toXYZ * SIMD3<Double>(1, 1, 1)
        let adapted = ICCProfile.bradford(from: d65, to: ICCProfile.d50) * d65
        #expect(abs(adapted.x - 0.9642) < 1e-9 && abs(adapted.y - 1) < 1e-9 && abs(adapted.z - 0.8249) < 1e-9)
        // Known D65→D50 Bradford matrix (Lindbloom), first row.
        let m = ICCProfile.bradford(from: SIMD3(0.95047, 1, 1.08883), to: SIMD3(0.96422, 1, 0.82521))
        #expect(abs(m[0, 0] - 1.0478112) < 1e-4 && abs(m[0, 1] - 0.0228866) < 1e-4 && abs(m[0, 2] + 0.0501270) < 1e-4)
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolParsesProfiles() throws {
        for space in ColorSpace.allCases {
            let jpeg = try JPEGEncoder.encode(TestImages.colourful(width: 16, height: 16), iccProfile: ICCProfile.data(for: space))
            let t = try ExifTool.tags(of: jpeg)
            #expect(t["ICC_Profile:ProfileDescription"] == (space == .sRGB ? "sRGB IEC61966-2.1" : "Display P3"))
            #expect(t["ICC-header:ProfileVersion"] == "4.3.0")
            #expect(t["ICC-header:ColorSpaceData"] == "RGB ")
            #expect(t["ExifTool:Warning"] == nil)
            #expect(t["ExifTool:Validate"] == "OK")
        }
    }

    /// Python, to confirm with Pillow's lcms binding when it is installed.
    static let python3 = ExternalTool("python3")

    static let pillowAvailable: Bool = (try? python3.run(["-c", "from PIL import ImageCms"]))?.status == 0

    @Test(.enabled(if: pillowAvailable, "python3 PIL not installed"))
    func lcmsParsesProfiles() throws {
        for space in ColorSpace.allCases {
            let result = try Self.python3.run(["-c", """
                import sys
                from PIL import ImageCms
                p = ImageCms.getOpenProfile(sys.argv[1])
                s = ImageCms.createProfile('sRGB')
                ImageCms.buildTransform(p, s, 'RGB', 'RGB')
                print(ImageCms.getProfileDescription(p).strip())
                """], file: ICCProfile.data(for: space), fileExtension: "icc")
            #expect(result.status == 0, "\(result.errorOutput)")
            #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == (space == .sRGB ? "sRGB IEC61966-2.1" : "Display P3"))
        }
    }
}
