import Foundation

/// The data of one moment from a synchronizer's outputs (Apple's `AVCaptureSynchronizedDataCollection`): an entry for
/// each output that had data (or a drop) at the primary output's timestamp. Iterating gives those outputs.
public final class AVCaptureSynchronizedDataCollection: NSObject, Sequence, @unchecked Sendable {
    private let entries: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)]

    init(_ entries: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)]) {
        self.entries = entries
        super.init()
    }

    /// The data `captureOutput` contributed, or nil when it had none at this moment (a depth output between maps).
    public func synchronizedData(for captureOutput: AVCaptureOutput) -> AVCaptureSynchronizedData? {
        entries.first { $0.output === captureOutput }?.data
    }

    /// The same as `synchronizedData(for:)`.
    public subscript(key: AVCaptureOutput) -> AVCaptureSynchronizedData? { synchronizedData(for: key) }

    /// How many outputs have data in the collection.
    public var count: Int { entries.count }

    /// The outputs with data in the collection, in the synchronizer's order.
    public func makeIterator() -> IndexingIterator<[AVCaptureOutput]> { entries.map(\.output).makeIterator() }
}
