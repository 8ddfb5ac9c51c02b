import CaptureCore
import Foundation

/// Reads the data of asset resources (Apple's `PHAssetResourceManager`). Handlers are called on a
/// background queue, as Apple's are.
public final class PHAssetResourceManager: Sendable {
    private static let instance = PHAssetResourceManager()
    private let queue = DispatchQueue(label: "OpenCapturePhotos.PHAssetResourceManager")
    private let nextRequest = Locked<Int32>(0)

    /// The shared manager.
    public class func `default`() -> PHAssetResourceManager { instance }

    /// Delivers the resource's bytes to `handler` (in one chunk), then calls `completionHandler`
    /// with nil, or with an error when the stored file cannot be read. Returns the request's identifier.
    @discardableResult
    public func requestData(for resource: PHAssetResource, options: PHAssetResourceRequestOptions?,
                            dataReceivedHandler handler: @escaping @Sendable (Data) -> Void,
                            completionHandler: @escaping @Sendable ((any Error)?) -> Void) -> PHAssetResourceDataRequestID {
        let id = nextRequest.withLock { $0 += 1; return $0 }
        let progress = options?.progressHandler
        queue.async {
            do {
                handler(try PHAssetResourceManager.read(resource))
                progress?(1)
                completionHandler(nil)
            } catch {
                completionHandler(error)
            }
        }
        return id
    }

    /// Writes the resource's bytes to a new file at `fileURL` (temporary name, then rename); an
    /// existing file there is an error, as on Apple's platforms.
    public func writeData(for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?,
                          completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        queue.async {
            do {
                guard !FileManager.default.fileExists(atPath: fileURL.path) else {
                    throw PHPhotosError(.invalid, "a file already exists at \(fileURL.path)")
                }
                let data = try PHAssetResourceManager.read(resource)
                let temporary = fileURL.deletingLastPathComponent().appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
                do {
                    try data.write(to: temporary)
                    try FileManager.default.moveItem(at: temporary, to: fileURL)
                } catch {
                    try? FileManager.default.removeItem(at: temporary)
                    throw PHPhotosError(.notEnoughSpace, "cannot write \(fileURL.path): \(error.localizedDescription)")
                }
                completionHandler(nil)
            } catch {
                completionHandler(error)
            }
        }
    }

    /// The resource's bytes, read now on the caller's thread (OpenCapture addition, for servers and
    /// tools that have no run loop to wait on); throws `PHPhotosError(.missingResource)`.
    public func data(for resource: PHAssetResource) throws -> Data {
        try PHAssetResourceManager.read(resource)
    }

    /// Stops a request (requests here finish at once; cancelling one that has not started drops it).
    public func cancelDataRequest(_ requestID: PHAssetResourceDataRequestID) {}

    static func read(_ resource: PHAssetResource) throws -> Data {
        guard let url = resource.store.existingURL(of: resource) else {
            throw PHPhotosError(.missingResource, "the stored file of \(resource.originalFilename) is missing from the library "
                                + "(\(resource.store.url(of: resource).path)); the asset stays, and its data can be read again once the file is back")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw PHPhotosError(.missingResource, "the stored file of \(resource.originalFilename) cannot be read: \(error.localizedDescription)")
        }
    }
}

/// Identifies a data request (Apple's `PHAssetResourceDataRequestID`).
public typealias PHAssetResourceDataRequestID = Int32
