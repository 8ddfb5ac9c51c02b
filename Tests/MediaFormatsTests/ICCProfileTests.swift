import CaptureCore
import Foundation
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

    @Test(.enabled(if: ExifTool.isAvailable, "exiftool not installed"))
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

    /// Confirms with Pillow's lcms binding when it is installed.
    static let pillowAvailable: Bool = {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "from PIL import ImageCms"]
        p.standardError = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    @Test(.enabled(if: pillowAvailable, "python3 PIL not installed"))
    func lcmsParsesProfiles() throws {
        for space in ColorSpace.allCases {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("oc-\(UUID().uuidString).icc")
            try ICCProfile.data(for: space).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3", "-c", """
                import sys
                from PIL import ImageCms
                p = ImageCms.getOpenProfile(sys.argv[1])
                s = ImageCms.createProfile('sRGB')
                ImageCms.buildTransform(p, s, 'RGB', 'RGB')
                print(ImageCms.getProfileDescription(p).strip())
                """, url.path]
            let pipe = Pipe()
            p.standardOutput = pipe
            try p.run()
            let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == (space == .sRGB ? "sRGB IEC61966-2.1" : "Display P3"))
        }
    }
}
