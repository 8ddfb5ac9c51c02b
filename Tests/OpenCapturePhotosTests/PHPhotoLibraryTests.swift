import CaptureCore
import Foundation
@testable import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapturePhotos

@Suite struct PHPhotoLibraryTests {
    /// As `NSError` the error is Photos' (domain and code), and `localizedDescription` says what went wrong.
    @Test func errorsBridgeWithApplesDomainCodeAndMessage() {
        let error: Error = PHPhotosError(.invalidResource, "resource 1 is not an image")
        let bridged = error as NSError
        #expect(bridged.domain == PHPhotosErrorDomain && bridged.code == 3302)
        #expect(error.localizedDescription == "resource 1 is not an image", "\(error.localizedDescription)")
        #expect(bridged.localizedDescription == "resource 1 is not an image")
    }

    @Test func aPhotoComesBackWithItsTypeSizeAndBytes() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try PhotoFixtures.jpeg()
        var placeholder: String?
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.originalFilename = "IMG_0001.JPG"
            request.addResource(with: .photo, data: jpeg, options: options)
            request.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
            request.location = CLLocation(latitude: 48.85, longitude: 2.35)
            placeholder = request.placeholderForCreatedAsset?.localIdentifier
        }
        let assets = library.fetchAssets()
        #expect(assets.count == 1)
        let asset = try #require(assets.firstObject)
        #expect(asset.localIdentifier == placeholder)
        #expect(asset.mediaType == .image && asset.mediaSubtypes.isEmpty)
        #expect(asset.pixelWidth == 64 && asset.pixelHeight == 48)
        #expect(asset.creationDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(asset.location?.coordinate.latitude == 48.85 && asset.location?.coordinate.longitude == 2.35)
        let resources = PHAssetResource.assetResources(for: asset)
        #expect(resources.map(\.type) == [.photo])
        #expect(resources[0].originalFilename == "IMG_0001.JPG" && resources[0].uniformTypeIdentifier == "public.jpeg")
        #expect(resources[0].assetLocalIdentifier == asset.localIdentifier)
        #expect(try PhotoFixtures.data(of: resources[0]) == jpeg)
    }

    @Test func aPhotoWithAPairedVideoIsOneLivePhoto() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (still, movieURL) = try LivePhotoPairFixture.make(in: folder)
        let movie = try Data(contentsOf: movieURL)
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: try! Data(contentsOf: still), options: nil)
            let options = PHAssetResourceCreationOptions()
            options.shouldMoveFile = true
            request.addResource(with: .pairedVideo, fileURL: movieURL, options: options)
        }
        let asset = try #require(library.fetchAssets().firstObject)
        #expect(asset.mediaType == .image && asset.mediaSubtypes == .photoLive)
        let resources = PHAssetResource.assetResources(for: asset)
        #expect(resources.map(\.type) == [.photo, .pairedVideo])
        #expect(resources[1].uniformTypeIdentifier == "com.apple.quicktime-movie" && resources[1].originalFilename == "IMG_0001.MOV")
        #expect(try PhotoFixtures.data(of: resources[1]) == movie)
        // shouldMoveFile: the library took the file.
        #expect(!FileManager.default.fileExists(atPath: movieURL.path))
    }

    @Test func rawAndProcessedAreOneAssetWithAnAlternate() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dng = try PhotoFixtures.dng()
        let dngURL = folder.appendingPathComponent("IMG_0003.DNG")
        try dng.write(to: dngURL)
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 3), options: nil)
            request.addResource(with: .alternatePhoto, fileURL: dngURL, options: nil)
        }
        let asset = try #require(library.fetchAssets().firstObject)
        let resources = PHAssetResource.assetResources(for: asset)
        #expect(resources.map(\.type) == [.photo, .alternatePhoto])
        #expect(resources[1].uniformTypeIdentifier == "com.adobe.raw-image")
        #expect(try PhotoFixtures.data(of: resources[1]) == dng)
        // Without shouldMoveFile the source stays.
        #expect(FileManager.default.fileExists(atPath: dngURL.path))
    }

    @Test func aPhotoCarryingDepthIsFlagged() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.portraitHEIC, options: nil)
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 4), options: nil)
        }
        let portrait = library.fetchAssets().objects(at: IndexSet(0..<2)).filter { $0.mediaSubtypes.contains(.photoDepthEffect) }
        #expect(portrait.count == 1)
        let first = try #require(portrait.first)
        #expect(PHAssetResource.assetResources(for: first).first?.uniformTypeIdentifier == "public.heic")
    }

    /// The `async` form (iOS 15) returns once the change is saved and throws what went wrong.
    @Test func theAsyncFormReturnsOnceSavedAndThrowsWhatWentWrong() async throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try PhotoFixtures.jpeg()
        try await library.performChanges {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: jpeg, options: nil)
        }
        #expect(library.fetchAssets().count == 1, "saved before the call returned")
        do {
            try await library.performChanges {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, data: Data("not a photo".utf8), options: nil)
            }
            Issue.record("a resource that is no image was saved")
        } catch let error as PHPhotosError {
            #expect(error.code == .invalidResource)
        }
        #expect(library.fetchAssets().count == 1)
    }

    /// A request without a date or place takes them from the photo's EXIF (DateTimeOriginal, the GPS IFD), as Photos
    /// does on import; the request's own win.
    @Test func theDateAndPlaceComeFromThePhotoUnlessTheRequestSetsThem() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        var exif = ExifMetadata()
        exif.dateTimeOriginal = Date(timeIntervalSince1970: 1_650_000_000)
        exif.gps = GPSInfo(latitude: -33.8568, longitude: 151.2153, altitude: 12, timestamp: Date(timeIntervalSince1970: 1_650_000_005))
        var image = Raster<UInt8>(width: 16, height: 12, channels: 3, repeating: 120)
        image[3, 4, 0] = 200
        let tagged = try JPEGEncoder.encode(image, quality: 90, exif: exif)
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: tagged, options: nil)
            let own = PHAssetCreationRequest.forAsset()
            own.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 9), options: nil)
            own.creationDate = Date(timeIntervalSince1970: 1_000_000_000)
        }
        let assets = library.fetchAssets(with: PHFetchOptions())
        let fromExif = try #require((0..<assets.count).map { assets.object(at: $0) }.first { $0.pixelWidth == 16 })
        #expect(fromExif.creationDate == Date(timeIntervalSince1970: 1_650_000_000))
        let place = try #require(fromExif.location)
        #expect(abs(place.coordinate.latitude + 33.8568) < 1e-6 && abs(place.coordinate.longitude - 151.2153) < 1e-6)
        #expect(place.altitude == 12 && place.timestamp == fromExif.creationDate, "the library keeps the place, dated with the asset")
        // A PNG's eXIf chunk counts too.
        let png = try PNGCodec.inserting(chunk: "eXIf", ExifWriter.tiffData(for: exif), into: try PNGCodec.encode(image))
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: png, options: nil) }
        let pngAsset = try #require(library.fetchAssets().lastObject)
        #expect(pngAsset.creationDate == Date(timeIntervalSince1970: 1_650_000_000) && pngAsset.location != nil)
        let own = try #require((0..<assets.count).map { assets.object(at: $0) }.first { $0.pixelWidth == 64 })
        #expect(own.creationDate == Date(timeIntervalSince1970: 1_000_000_000) && own.location == nil)
        // A video's date is its movie header's.
        let (_, movie) = try LivePhotoPairFixture.make(in: folder)
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .video, fileURL: movie, options: nil) }
        let video = try #require(library.fetchAssets(with: .video, options: nil).firstObject)
        #expect(video.creationDate == LivePhotoPairFixture.creationDate)
    }

    /// Libraries opened on one folder (as separate processes do) share it: one's opening never takes another's change
    /// in flight, and every saved asset stays.
    @Test func librariesSharingAFolderLoseNothing() throws {
        let (first, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let second = PHPhotoLibrary(url: first.url)
        let photos = try (0..<24).map { try PhotoFixtures.jpeg(seed: 100 + $0) }
        let done = DispatchGroup()
        nonisolated(unsafe) var failures: [any Error] = []
        let failuresLock = NSLock()
        for (index, library) in [first, second].enumerated() {
            DispatchQueue.global().async(group: done) {
                for k in stride(from: index, to: photos.count, by: 2) {
                    do {
                        try library.performChangesAndWait {
                            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: photos[k], options: nil)
                        }
                    } catch {
                        failuresLock.withLock { failures.append(error) }
                    }
                }
            }
        }
        // Meanwhile other "processes" open the library (and recover it) again and again.
        DispatchQueue.global().async(group: done) {
            for _ in 0..<12 { _ = PHPhotoLibrary(url: first.url).fetchAssets().count }
        }
        done.wait()
        #expect(failures.isEmpty, "\(failures)")
        let reopened = PHPhotoLibrary(url: first.url)
        #expect(reopened.fetchAssets().count == photos.count)
        #expect(PhotoFixtures.storedFiles(reopened).count == photos.count)
    }

    /// Reading a folder that holds no library creates nothing and deletes nothing there; opening it says why.
    @Test func aFolderWithoutALibraryIsLeftAlone() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mine = folder.appendingPathComponent("originals/2019", isDirectory: true)
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        try PhotoFixtures.jpeg().write(to: mine.appendingPathComponent("a.jpg"))
        let library = PHPhotoLibrary(url: folder)
        #expect(library.fetchAssets().count == 0)
        do {
            try library.openExistingLibrary()
            Issue.record("a folder without a library opened")
        } catch let error as PHPhotosError {
            #expect(error.reason.contains("no photo library"), "\(error)")
        }
        #expect(FileManager.default.fileExists(atPath: mine.appendingPathComponent("a.jpg").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Photos.sqlite").path))
        // A library's own store keeps files it did not name: only its digests are taken back.
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 3), options: nil)
        }
        _ = PHPhotoLibrary(url: folder).fetchAssets()
        #expect(FileManager.default.fileExists(atPath: mine.appendingPathComponent("a.jpg").path))
    }

    /// An empty Photos.sqlite (a `touch`, a copy cut short) is no library: reading it writes no schema or lock file;
    /// a change makes the library there.
    @Test func anEmptyDatabaseFileIsNoLibrary() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("Photos.sqlite")
        #expect(FileManager.default.createFile(atPath: database.path, contents: Data()))
        let library = PHPhotoLibrary(url: folder)
        #expect(library.fetchAssets().count == 0)
        #expect(throws: PHPhotosError.self) { try library.openExistingLibrary() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["Photos.sqlite"])
        #expect((try FileManager.default.attributesOfItem(atPath: database.path)[.size] as? NSNumber)?.intValue == 0)
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 4), options: nil)
        }
        #expect(PHPhotoLibrary(url: folder).fetchAssets().count == 1)
    }

    @Test func aBadResourceRejectsTheWholeChange() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = try PhotoFixtures.jpeg(seed: 5)
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, data: good, options: nil)
                PHAssetCreationRequest.forAsset().addResource(with: .photo, data: Data("not a photo".utf8), options: nil)
            }
        }
        do {
            try library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .pairedVideo, data: PhotoFixtures.movie, options: nil)
            }
            Issue.record("a paired video without a photo was accepted")
        } catch let error as PHPhotosError {
            #expect(error.code == .invalidResource)
        }
        do {
            try library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: folder.appendingPathComponent("missing.jpg"), options: nil)
            }
            Issue.record("a missing file was accepted")
        } catch let error as PHPhotosError {
            #expect(error.code == .missingResource)
        }
        // A movie that is no movie, a JPEG cut short: refused, naming the file.
        let text = folder.appendingPathComponent("clip.mov"), cut = folder.appendingPathComponent("cut.jpg")
        try Data("not a movie".utf8).write(to: text)
        try good.prefix(good.count * 2 / 3).write(to: cut)
        for (type, url, why) in [(PHAssetResourceType.video, text, "clip.mov) is not a QuickTime or MPEG-4 movie"),
                                 (.photo, cut, "cut.jpg) is a JPEG cut short inside its image data")] {
            do {
                try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: type, fileURL: url, options: nil) }
                Issue.record("\(url.lastPathComponent) was accepted")
            } catch let error as PHPhotosError {
                #expect(error.code == .invalidResource && error.reason.hasSuffix(why), "\(error)")
            }
        }
        #expect(library.fetchAssets().count == 0)
        #expect(PhotoFixtures.storedFiles(library).isEmpty)
    }

    @Test func theSameBytesAreStoredOnce() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try PhotoFixtures.jpeg(seed: 6)
        for _ in 0..<2 {
            try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: jpeg, options: nil) }
        }
        #expect(library.fetchAssets().count == 2)
        let stored = PhotoFixtures.storedFiles(library)
        #expect(stored.count == 1)
        #expect(stored.first?.hasSuffix(PhotoStore.sha256(jpeg) + ".jpg") == true)
    }

    @Test func concurrentChangesAllLand() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try (0..<40).map { try PhotoFixtures.jpeg(seed: 100 + $0) }
        let group = DispatchGroup()
        let successes = LockedData()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for k in stride(from: thread, to: photos.count, by: 8) {
                group.enter()
                library.performChanges({
                    PHAssetCreationRequest.forAsset().addResource(with: .photo, data: photos[k], options: nil)
                }, completionHandler: { ok, _ in
                    if ok { successes.append(Data([1])) }
                    group.leave()
                })
            }
        }
        group.wait()
        #expect(successes.get().count == 40)
        #expect(library.fetchAssets().count == 40)
        #expect(PhotoFixtures.storedFiles(library).count == 40)
    }

    @Test func fetchesSortFilterAndLimit() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dates = [3, 1, 2].map { Date(timeIntervalSince1970: 1_600_000_000 + Double($0) * 86_400) }
        try library.performChangesAndWait {
            for (i, date) in dates.enumerated() {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 20 + i, width: 16 * (i + 1)), options: nil)
                request.creationDate = date
            }
        }
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: false)]
        #expect((0..<3).map { library.fetchAssets(with: options)[$0].creationDate } == dates.sorted(by: >))
        options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: true)]
        options.fetchLimit = 2
        #expect(library.fetchAssets(with: options).count == 2 && library.fetchAssets(with: options).firstObject?.creationDate == dates.min())
        options.fetchLimit = 0
        options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.pixelWidth, ascending: false)]
        options.predicate = NSPredicate { asset, _ in ((asset as? PHAsset)?.pixelWidth ?? 0) > 16 }
        let wide = library.fetchAssets(with: options)
        #expect(wide.count == 2 && wide[0].pixelWidth == 48 && wide[1].pixelWidth == 32)
        #expect(library.fetchAssets(with: .video, options: nil).count == 0)
        #expect(library.fetchAssets(with: .image, options: nil).count == 3)
    }

    @Test func observersHearEachChange() throws {
        final class Observer: PHPhotoLibraryChangeObserver, @unchecked Sendable {
            // `@unchecked Sendable`: `lock` guards `inserted`.
            let lock = NSLock()
            var inserted: [String] = []
            func photoLibraryDidChange(_ changeInstance: PHChange) { lock.withLock { inserted += changeInstance.insertedLocalIdentifiers } }
        }
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let observer = Observer()
        library.register(observer)
        var id: String?
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 7), options: nil)
            id = request.placeholderForCreatedAsset?.localIdentifier
        }
        library.unregisterChangeObserver(observer)
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 8), options: nil)
        }
        let created = try #require(id)
        #expect(observer.lock.withLock { observer.inserted } == [created])
        // Change details of a fetch made before a change: the same fetch after it, and what it gained.
        let before = library.fetchAssets(with: .image, options: nil)
        final class Details: PHPhotoLibraryChangeObserver, @unchecked Sendable {
            // `@unchecked Sendable`: `lock` guards `counts`; `fetch` is set before registration.
            let lock = NSLock()
            var counts: (before: Int, after: Int, inserted: [Int])?
            let fetch: PHFetchResult<PHAsset>
            init(_ fetch: PHFetchResult<PHAsset>) { self.fetch = fetch }
            func photoLibraryDidChange(_ changeInstance: PHChange) {
                guard let details = changeInstance.changeDetails(for: fetch) else { return }
                lock.withLock {
                    counts = (details.fetchResultBeforeChanges.count, details.fetchResultAfterChanges.count,
                              Array(details.insertedIndexes ?? []))
                }
            }
        }
        let details = Details(before)
        library.register(details)
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 13), options: nil)
        }
        let counts = try #require(details.lock.withLock { details.counts })
        #expect(counts.before == 2 && counts.after == 3 && counts.inserted == [2])
    }

    @Test func aNestedChangeIsRefusedNotADeadlock() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nested = LockedError()
        try library.performChangesAndWait {
            do {
                try library.performChangesAndWait {}
            } catch {
                nested.set(error)
            }
        }
        #expect((nested.get() as? PHPhotosError)?.code == .changeNotSupported)
        // By identifier, through the library's own fetch.
        var id = ""
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 12), options: nil)
            id = request.placeholderForCreatedAsset?.localIdentifier ?? ""
        }
        #expect(id.hasSuffix(PHAssetCreationRequest.identifierSuffix))
        #expect(library.fetchAssets(withLocalIdentifiers: [id, "missing"], options: nil).count == 1)
    }

    @Test func requestsOutsideAChangeBlockSaveNothing() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try PhotoFixtures.jpeg(seed: 9), options: nil)
        try library.performChangesAndWait {}
        #expect(library.fetchAssets().count == 0)
        #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .authorized)
    }

    @Test func writeDataMakesANewFileOnly() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = try PhotoFixtures.jpeg(seed: 11)
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: jpeg, options: nil) }
        let asset = try #require(library.fetchAssets().firstObject)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let target = folder.appendingPathComponent("export.jpg")
        for expectFailure in [false, true] {
            let done = DispatchSemaphore(value: 0), failure = LockedError()
            PHAssetResourceManager.default().writeData(for: resource, toFile: target, options: nil) { failure.set($0); done.signal() }
            done.wait()
            #expect((failure.get() != nil) == expectFailure)
        }
        #expect(try Data(contentsOf: target) == jpeg)
    }

    @Test func aLibraryThatCannotBeOpenedGivesAnError() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        let library = PHPhotoLibrary(url: file)
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(), options: nil) }
        }
        #expect(library.fetchAssets().count == 0)
        // Once the folder can be made (the disk remounted, the file moved), the same library opens: a failure is not
        // remembered.
        try FileManager.default.removeItem(at: file)
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(), options: nil) }
        #expect(library.fetchAssets().count == 1)
    }

    /// `$HOME` decides the default library, as XDG says (not the account's home folder from the password database),
    /// below `$XDG_DATA_HOME` and `$OPENCAPTURE_PHOTO_LIBRARY`.
    @Test func theDefaultLibraryFollowsHOME() {
        #expect(PHPhotoLibrary.defaultLocation(environment: ["HOME": "/tmp/x"]).path == "/tmp/x/.local/share/opencapture/Photos")
        #expect(PHPhotoLibrary.defaultLocation(environment: ["HOME": "/tmp/x", "XDG_DATA_HOME": "/data"]).path == "/data/opencapture/Photos")
        #expect(PHPhotoLibrary.defaultLocation(environment: ["HOME": "/tmp/x", "OPENCAPTURE_PHOTO_LIBRARY": "/lib"]).path == "/lib")
        #expect(PHPhotoLibrary.defaultLocation(environment: ["HOME": ""]).path
                == FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share/opencapture/Photos").path)
    }
}
