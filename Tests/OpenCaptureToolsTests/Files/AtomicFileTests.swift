import Foundation
import Testing
@testable import OpenCaptureTools

@Suite struct AtomicFileTests {
    /// A fresh folder under the system temporary directory, removed by the caller.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Everything in `folder`, hidden temporary files included.
    static func contents(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func writesAndReplacesWholeFiles() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("photo.jpg")
        try AtomicFile.write(Data(repeating: 7, count: 100_000), to: url)
        #expect(try Data(contentsOf: url) == Data(repeating: 7, count: 100_000))
        try AtomicFile.write(Data([1, 2, 3]), to: url)
        #expect(try Data(contentsOf: url) == Data([1, 2, 3]))
        #expect(try Self.contents(folder) == ["photo.jpg"])
    }

    /// A name of 255 bytes (the most a file name holds) is written: the temporary name beside it was the name plus a
    /// suffix, too long for the file system, so every legal name over ~230 bytes failed with "the name is too long".
    @Test func theLongestLegalNamesAreWritten() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in [String(repeating: "x", count: 251) + ".jpg", String(repeating: "é", count: 125) + ".jpg"] {
            let url = folder.appendingPathComponent(name)
            try AtomicFile.write(Data([1, 2, 3]), to: url, replacing: false)
            try AtomicFile.write(to: url) { descriptor in _ = [UInt8(4)].withUnsafeBytes { write(descriptor, $0.baseAddress, 1) } }
            #expect(try Data(contentsOf: url) == Data([4]))
        }
        #expect(try Self.contents(folder).count == 2)
    }

    @Test func withoutReplacingAFileThereIsKeptAndNothingIsLeftBehind() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("photo.jpg")
        // Nothing there: written as usual.
        try AtomicFile.write(Data([1, 2, 3]), to: url, replacing: false)
        #expect(try Data(contentsOf: url) == Data([1, 2, 3]))
        // A file there (as one that appeared while the photo was made): kept, and the write throws.
        #expect(throws: FileAccessError.self) { try AtomicFile.write(Data([9]), to: url, replacing: false) }
        #expect(throws: FileAccessError.self) {
            try AtomicFile.write(to: url, replacing: false) { descriptor in _ = [UInt8(9)].withUnsafeBytes { write(descriptor, $0.baseAddress, 1) } }
        }
        #expect(try Data(contentsOf: url) == Data([1, 2, 3]))
        // A symbolic link that points nowhere is a name taken too.
        let link = folder.appendingPathComponent("link.jpg")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/nonexistent/x.jpg")
        #expect(throws: FileAccessError.self) { try AtomicFile.write(Data([9]), to: link, replacing: false) }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "/nonexistent/x.jpg")
        // A set whose second name is taken: the first, placed already, is taken back.
        let first = folder.appendingPathComponent("fused.jpg")
        #expect(throws: FileAccessError.self) {
            try AtomicFile.write([(Data([4]), first), (Data([5]), url)], replacing: false)
        }
        #expect(!FileManager.default.fileExists(atPath: first.path))
        #expect(try Self.contents(folder) == ["link.jpg", "photo.jpg"])
    }

    @Test func aWriterThatFailsMidwayLeavesNothing() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("fused.jpg")
        struct DiskFull: Error {}
        #expect(throws: DiskFull.self) {
            try AtomicFile.write(to: url) { descriptor in
                let half = [UInt8](repeating: 0xAB, count: 4096)
                _ = half.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                throw DiskFull()
            }
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try Self.contents(folder).isEmpty, "no temporary file left behind either")
    }

    @Test func aFailedWriteKeepsTheOldFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("photo.dng")
        try AtomicFile.write(Data("old".utf8), to: url)
        #expect(throws: (any Error).self) {
            try AtomicFile.write(to: url) { descriptor in
                // Part of the new file is written, then the disk is full. (The descriptor is AtomicFile's: closing it
                // here would let AtomicFile close a number another thread may have reused.)
                _ = write(descriptor, "new", 3)
                throw FileAccessError(.write, path: url.path, errno: ENOSPC)
            }
        }
        #expect(try Data(contentsOf: url) == Data("old".utf8))
        #expect(try Self.contents(folder) == ["photo.dng"])
    }

    @Test func destinationsAreCheckedWithPlainReasons() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a-file")
        try AtomicFile.write(Data([0]), to: file)

        let missing = folder.appendingPathComponent("missing/out.jpg")
        #expect(throws: FileAccessError(.write, path: missing.path, reason: "the folder \(missing.deletingLastPathComponent().path) does not exist")) {
            try AtomicFile.write(Data([1]), to: missing)
        }
        let underFile = file.appendingPathComponent("out.jpg")
        #expect(throws: FileAccessError(.write, path: underFile.path, reason: "\(file.path) is a file, not a folder")) {
            try AtomicFile.checkDestination(underFile)
        }
        #expect(throws: FileAccessError(.write, path: folder.path, reason: "it is a folder")) {
            try AtomicFile.checkDestination(folder)
        }
        #expect(throws: FileAccessError(.createFolder, path: file.path, reason: "a file with that name is in the way")) {
            try AtomicFile.makeFolder(file)
        }
        let nested = file.appendingPathComponent("x/y")
        #expect(throws: FileAccessError(.createFolder, path: nested.path, reason: "\(file.path) is a file, not a folder")) {
            try AtomicFile.makeFolder(nested)
        }
        #expect(throws: FileAccessError(.read, path: "/nonexistent-opencapture/x.jpg", reason: "no such file")) {
            try AtomicFile.read(URL(fileURLWithPath: "/nonexistent-opencapture/x.jpg"))
        }
        #expect(try Self.contents(folder) == ["a-file"])
    }

    @Test func aSetOfFilesIsWrittenWhole() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.jpg"), b = folder.appendingPathComponent("b.hdr")
        try Data("old a".utf8).write(to: a)
        // The second destination cannot be written: nothing of the set appears, the old file stays, no temporaries.
        let missing = folder.appendingPathComponent("no-such-folder/c.jpg")
        #expect(throws: FileAccessError.self) { try AtomicFile.write([(Data("new a".utf8), a), (Data("c".utf8), missing)]) }
        #expect(try Data(contentsOf: a) == Data("old a".utf8))
        #expect(try Self.contents(folder) == ["a.jpg"])
        try AtomicFile.write([(Data("new a".utf8), a), (Data("b".utf8), b)])
        #expect(try Data(contentsOf: a) == Data("new a".utf8) && Data(contentsOf: b) == Data("b".utf8))
        #expect(try Self.contents(folder) == ["a.jpg", "b.hdr"])
        // Two spellings of one file give one path.
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        #expect(AtomicFile.canonicalPath(URL(fileURLWithPath: link.path + "/./x/../a.jpg")) == AtomicFile.canonicalPath(a))
        // A hard link is the same file too; another file is not.
        let hard = folder.appendingPathComponent("hard.jpg")
        try FileManager.default.linkItem(at: a, to: hard)
        #expect(AtomicFile.isSameFile(hard, a) && !AtomicFile.isSameFile(b, a))
        #expect(AtomicFile.isSameFile(URL(fileURLWithPath: link.path + "/missing.jpg"), folder.appendingPathComponent("missing.jpg")))
        // A file not written yet (an output) too.
        #expect(AtomicFile.canonicalPath(URL(fileURLWithPath: link.path + "/new.jpg"))
                == AtomicFile.canonicalPath(folder.appendingPathComponent("new.jpg")))
    }

    @Test func readBytesReadsWholeFilesAndRefusesWhatIsNotOne() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bytes.bin"), empty = folder.appendingPathComponent("empty.bin")
        let contents = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 3) }
        try Data(contents).write(to: file)
        try Data().write(to: empty)
        #expect(try AtomicFile.readBytes(file) == contents)
        #expect(try AtomicFile.readBytes(empty) == [])
        #expect(throws: FileAccessError(.read, path: folder.path, reason: "it is a folder")) { try AtomicFile.readBytes(folder) }
        #expect(throws: FileAccessError(.read, path: "/dev/zero", reason: "not a regular file")) {
            try AtomicFile.readBytes(URL(fileURLWithPath: "/dev/zero"))
        }
        #expect(throws: FileAccessError(.read, path: "/nonexistent-opencapture/x.dng", reason: "no such file")) {
            try AtomicFile.readBytes(URL(fileURLWithPath: "/nonexistent-opencapture/x.dng"))
        }
    }

    @Test func foundationErrorsBecomeSentences() {
        let cocoa = NSError(domain: NSCocoaErrorDomain, code: NSFileWriteOutOfSpaceError)
        #expect(FileAccessError.reason(for: cocoa) == "no space left on device")
        let wrapped = NSError(domain: NSCocoaErrorDomain, code: NSFileWriteUnknownError,
                              userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        #expect(FileAccessError.reason(for: wrapped) == "no space left on device")
        #expect(FileAccessError(.write, path: "/x/y.jpg", errno: EACCES).description == "cannot write /x/y.jpg: permission denied")
        #expect(!FileAccessError.reason(for: cocoa).contains("NSCocoaErrorDomain"))
    }
}
