import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing

/// Two processes with the same seed, requests and `--date` write byte-identical files.
@Suite(.enabled(if: OpenCaptureBinary.tool.isInstalled, "the opencapture binary is not built next to the tests"))
struct DeterminismTests {
    static func shoot(_ arguments: [String]) throws -> [String: Data] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-det-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try OpenCaptureBinary.tool.run(["shoot", "--preset", "vga", "--seed", "5", "--date", "2026-03-01T09:30:00+01:00",
                                                     "-o", folder.path] + arguments)
        #expect(result.status == 0, "\(result.errorOutput)")
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    @Test(arguments: [["--format", "jpeg", "--raw"], ["--format", "heic"]])
    func twoProcessesWriteIdenticalFiles(arguments: [String]) throws {
        let first = try Self.shoot(arguments), second = try Self.shoot(arguments)
        #expect(!first.isEmpty)
        #expect(first.keys.sorted() == second.keys.sorted())
        for (name, data) in first {
            #expect(data.count > 1000, "\(name)")
            #expect(data == second[name], "\(name) differs between runs")
        }
        // RAW + JPEG share their name, as an iPhone's IMG_0001.DNG + IMG_0001.HEIC (a library import pairs them).
        if arguments.contains("--raw") { #expect(Set(first.keys) == ["photo-1.dng", "photo-1.jpg"]) }
    }

    @Test func anUnreadableDateIsOneLineAndNothingWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-det-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try HostileInputTests.run(["shoot", "--preset", "low", "--date", "yesterday", "-o", folder.path],
                                                in: FileManager.default.temporaryDirectory)
        #expect(outcome.status != 0)
        #expect(outcome.stderrLines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    /// The zone of `--date` is the photo's: +0530 (ISO 8601's basic form) was recorded as UTC, and +99:99, which no
    /// zone has, was taken (the photo said +00:00, three hours off).
    @Test func theDatesZoneIsTheOneRecordedAndAnImpossibleOneIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-det-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for zone in ["+0530", "+05:30"] {
            let result = try OpenCaptureBinary.tool.run(["shoot", "--preset", "low", "--date", "2026-01-01T12:00:00" + zone,
                                                         "-o", folder.path])
            #expect(result.status == 0, "\(result.errorOutput)")
        }
        for name in ["photo-1.jpg", "photo-2.jpg"] {
            let exif = try ExifReader.read(jpeg: Data(contentsOf: folder.appendingPathComponent(name)))
            #expect(exif.timeZoneOffsetSeconds == 19_800, "\(name)")
            #expect(exif.dateTimeOriginal == ISO8601DateFormatter().date(from: "2026-01-01T06:30:00Z"), "\(name)")
        }
        for date in ["2026-01-01T12:00:00+99:99", "2026-01-01T12:00:00+05:", "2026-01-01T12:00:00+530"] {
            let outcome = try HostileInputTests.run(["shoot", "--preset", "low", "--date", date, "-o", folder.path],
                                                    in: FileManager.default.temporaryDirectory)
            #expect(outcome.status != 0 && outcome.stderrLines.count == 1 && outcome.stderr.contains("--date"), "\(date): \(outcome.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2)
    }
}
