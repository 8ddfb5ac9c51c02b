/*
 The capture delegate of Apple's "Capturing Photos in RAW and Apple ProRAW Formats" (AVFoundation
 documentation), unchanged apart from the imports and a `didFinish` hook the test waits on: it
 writes the DNG to a unique temporary file, keeps the processed (HEIF) data, and saves both as one
 Photos asset — the RAW as `.photo` (moved into the library), the HEIF as `.alternatePhoto`.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
#if canImport(Photos)
import Photos
#else
import OpenCapturePhotos
#endif
import Foundation

class RAWCaptureDelegate: NSObject, AVCapturePhotoCaptureDelegate {
    
    private var rawFileURL: URL?
    private var compressedData: Data?
    
    // Test hook: called from the Photos completion handler.
    var didFinish: ((Bool, Error?) -> Void)?
    
    func photoOutput(_ output: AVCapturePhotoOutput,
                     didFinishProcessingPhoto photo: AVCapturePhoto,
                     error: Error?) {
        // Handle the error condition.
        if let error = error {
            print("Error capturing photo: \(error)")
            return
        }
        // Access the file data representation of this photo.
        guard let photoData = photo.fileDataRepresentation() else {
            print("No photo data to write.")
            return
        }
        if photo.isRawPhoto {
            // Generate a unique URL to write the RAW file.
            rawFileURL = makeUniqueDNGFileURL()
            do {
                // Write the RAW (DNG) file data to a URL.
                try photoData.write(to: rawFileURL!)
            } catch {
                fatalError("Couldn't write DNG file to the URL.")
            }
        } else {
            // Store compressed bitmap data.
            compressedData = photoData
        }
    }
    
    private func makeUniqueDNGFileURL() -> URL {
        let tempDir = FileManager.default.temporaryDirectory
        let fileName = ProcessInfo.processInfo.globallyUniqueString
        return tempDir.appendingPathComponent(fileName).appendingPathExtension("dng")
    }
    
    func photoOutput(_ output: AVCapturePhotoOutput,
                     didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                     error: Error?) {
        // Call a function to save the photo data to the Photos library.
        // Ensure the RAW and processed photo data exists.
        guard let rawFileURL = rawFileURL,
              let compressedData = compressedData else {
            print("The expected photo data isn't available.")
            didFinish?(false, nil)
            return
        }
        
        // Request add-only access to the user's Photos library (if the user hasn't already granted that access).
        PHPhotoLibrary.requestAuthorization(for: .addOnly) { status in
            
            // Don't continue unless the user granted access.
            guard status == .authorized else { return }
            
            PHPhotoLibrary.shared().performChanges {
                
                let creationRequest = PHAssetCreationRequest.forAsset()
                
                // Save the RAW (DNG) file as the main resource for the Photos asset.
                let options = PHAssetResourceCreationOptions()
                options.shouldMoveFile = true
                creationRequest.addResource(with: .photo,
                                            fileURL: rawFileURL,
                                            options: options)
                
                // Add the compressed (HEIF) data as an alternative resource.
                creationRequest.addResource(with: .alternatePhoto,
                                            data: compressedData,
                                            options: nil)
                
            } completionHandler: { success, error in
                // Process the Photos library error.
                self.didFinish?(success, error)
            }
        }
    }
}
