import OpenCaptureTools

extension PhotoFusion {
    /// Fuses the photos of one bracket (their file data); exposures come from their metadata. A bracket delivered as
    /// RAW + processed is fused from its RAW photos (merged before developing).
    public func fuse(_ photos: [AVCapturePhoto], progress: ((String) -> Void)? = nil) throws -> PhotoFusionResult {
        let raws = photos.filter(\.isRawPhoto)
        let photos = raws.count >= 2 ? raws : photos
        let files = try photos.enumerated().map { index, photo in
            guard let data = photo.fileDataRepresentation() else {
                throw PhotoFusionError.unreadable("photo \(index + 1)", reason: "it has no file data")
            }
            return data
        }
        return try fuse(fileData: files, names: photos.indices.map { "photo \($0 + 1)" }, progress: progress)
    }
}
