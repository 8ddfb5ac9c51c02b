/// Told after each saved change (Apple's `PHPhotoLibraryChangeObserver`), on a background queue.
public protocol PHPhotoLibraryChangeObserver: AnyObject {
    func photoLibraryDidChange(_ changeInstance: PHChange)
}
