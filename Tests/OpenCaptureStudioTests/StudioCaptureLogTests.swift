import Foundation
import OpenCaptureTestSupport
import Testing
@testable import OpenCaptureStudio

/// The studio's capture log: a damaged one is set aside, never written over, and what can be read of it is kept.
@Suite struct StudioCaptureLogTests {
    static func record(_ i: Int) -> StudioCaptureRecord {
        StudioCaptureRecord(id: "capture-\(i)", mode: "photo", device: "wide", date: Date(timeIntervalSince1970: 1_800_000_000 + Double(i)),
                            assets: ["photo": "ID-\(i)"],
                            events: [StudioCaptureEvent(name: "willBeginCapture", start: 1, end: 1, detail: "640×480, \"1\" {photo}")])
    }

    @Test func aCutLogIsKeptAsideAndItsCompleteRecordsRecovered() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = StudioCaptureLog(folder: folder)
        for i in 1...5 { try log.append(Self.record(i)) }
        // Cut inside the fourth record, as `truncate -s` does.
        let full = try Data(contentsOf: log.url)
        let cut = full.prefix(full.count * 7 / 10)
        try cut.write(to: log.url)

        let reopened = StudioCaptureLog(folder: folder)
        let notice = try #require(try reopened.load())
        #expect(notice.contains("kept as studio-captures.json.damaged-") && notice.hasSuffix("3 captures recovered from it"), "\(notice)")
        #expect(reopened.all.map(\.id) == ["capture-1", "capture-2", "capture-3"])
        #expect(reopened.all.first?.events.first?.detail == "640×480, \"1\" {photo}")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let aside = try #require(names.first { $0.hasPrefix("studio-captures.json.damaged-") })
        #expect(try Data(contentsOf: folder.appendingPathComponent(aside)) == cut, "the damaged file is kept byte for byte")
        // The log itself now holds the recovered records, and grows from there.
        try reopened.append(Self.record(6))
        let again = StudioCaptureLog(folder: folder)
        #expect(try again.load() == nil)
        #expect(again.all.map(\.id) == ["capture-1", "capture-2", "capture-3", "capture-6"])
    }

    @Test func aLogThatIsNotAListIsKeptAsideAndNothingInvented() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = StudioCaptureLog(folder: folder)
        try Data("{\"not\": \"a log\"}".utf8).write(to: log.url)
        let notice = try #require(try log.load())
        #expect(notice.contains("its records are not captures") && notice.hasSuffix("0 captures recovered from it"), "\(notice)")
        #expect(log.all.isEmpty && !FileManager.default.fileExists(atPath: log.url.path))
        // A second damage the same second does not take the first one's name.
        try Data("[{".utf8).write(to: log.url)
        #expect(try StudioCaptureLog(folder: folder).load() != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".damaged-") }.count == 2)
    }

    @Test func aMissingOrSoundLogLoadsQuietly() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = StudioCaptureLog(folder: folder)
        #expect(try log.load() == nil && log.all.isEmpty)
        try log.append(Self.record(1))
        let reopened = StudioCaptureLog(folder: folder)
        #expect(try reopened.load() == nil && reopened.all.map(\.assets) == [["photo": "ID-1"]])
    }
}
