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

    /// Writes the resource's bytes to a new file at `fileURL` (temporary name, then rename); an existing file there
    /// is an error, as on Apple's platforms. A destination that cannot be written (no such folder, a read-only disk, no
    /// permission) is `.invalid` with the reason; only a full disk is `.notEnoughSpace`.
    public func writeData(for resource: PHAssetResource, toFile fileURL: URL, options: PHAssetResourceRequestOptions?,
                          completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        queue.async {
            do {
                let folder = fileURL.deletingLastPathComponent()
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                    throw PHPhotosError(.invalid, "cannot write \(fileURL.path): there is no folder \(folder.path)")
                }
                guard !FileManager.default.fileExists(atPath: fileURL.path) else {
                    throw PHPhotosError(.invalid, "a file already exists at \(fileURL.path)")
                }
                let data = try PHAssetResourceManager.read(resource)
                let temporary = folder.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
                do {
                    try data.write(to: temporary)
                    try FileManager.default.moveItem(at: temporary, to: fileURL)
                } catch {
                    try? FileManager.default.removeItem(at: temporary)
                    throw PHAssetResourceManager.writeFailure(error, at: fileURL)
                }
                completionHandler(nil)
            } catch {
                completionHandler(error)
            }
        }
    }

    /// Why a file could not be written, as the library says it: `.notEnoughSpace` for a full disk or quota, else
    /// `.invalid` (the destination is the caller's to choose), with the system's reason.
    static func writeFailure(_ error: any Error, at fileURL: URL) -> PHPhotosError {
        PHPhotosError(PhotoStore.isOutOfSpace(error) ? .notEnoughSpace : .invalid, "cannot write \(fileURL.path): \(PhotoStore.describe(error))")
    }

    /// The resource's bytes, read now on the caller's thread (OpenCapture addition, for servers and
    /// tools that have no run loop to wait on); throws `PHPhotosError(.missingResource)`, or `.identifierNotFound` when
    /// the resource's asset has been deleted since it was fetched.
    public func data(for resource: PHAssetResource) throws -> Data {
        try PHAssetResourceManager.read(resource)
    }

    /// Where the resource's stored file is, to be read in place — by a tool that wants a path (FFmpeg decoding a
    /// video's frame) or only some of the bytes (a range of a movie) — and never written: the library names its files
    /// by their content. OpenCapture addition; throws as `data(for:)` does when the file is missing or the asset deleted.
    public func fileURL(for resource: PHAssetResource) throws -> URL {
        try PHAssetResourceManager.storedURL(of: resource)
    }

    /// Stops a request (requests here finish at once; cancelling one that has not started drops it).
    public func cancelDataRequest(_ requestID: PHAssetResourceDataRequestID) {}

    static func read(_ resource: PHAssetResource) throws -> Data {
        let url = try storedURL(of: resource)
        do {
            return try Data(contentsOf: url)
        } catch {
            throw PHPhotosError(.missingResource, "the stored file of \(resource.originalFilename) cannot be read: \(error.localizedDescription)")
        }
    }

    /// The resource's stored file; throws `.missingResource`, or `.identifierNotFound` when its asset has been deleted.
    static func storedURL(of resource: PHAssetResource) throws -> URL {
        guard let url = resource.store.existingURL(of: resource) else {
            // A resource fetched before its asset was deleted: its file went with it (not "missing", to be put back).
            if (try? resource.store.holdsAsset(resource.assetLocalIdentifier)) == false {
                throw PHPhotosError(.identifierNotFound, "\(resource.originalFilename) belongs to asset \(resource.assetLocalIdentifier), "
                                    + "which the library no longer holds (deleted)")
            }
            throw PHPhotosError(.missingResource, "the stored file of \(resource.originalFilename) is missing from the library "
                                + "(\(resource.store.url(of: resource).path)); the asset stays, and its data can be read again once the file is back")
        }
        return url
    }
}

/// Identifies a data request (Apple's `PHAssetResourceDataRequestID`).
public typealias PHAssetResourceDataRequestID = Int32
