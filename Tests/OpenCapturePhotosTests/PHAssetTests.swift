import Foundation
import Testing
@testable import OpenCapturePhotos

@Suite struct PHAssetTests {
    /// The same asset fetched twice is two objects but one `Set` member and one dictionary key, as on Apple's
    /// platforms (an `NSObject` equal by local identifier).
    @Test func assetsAreHashableByIdentifier() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait {
            for seed in [111, 112] { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: seed), options: nil) }
        }
        let first = library.fetchAssets(), second = library.fetchAssets()
        #expect(first[0] !== second[0] && first[0] == second[0] && first[0] != first[1])
        let assets: Set<PHAsset> = [first[0], first[1], second[0], second[1]]
        #expect(assets.count == 2)
        let names = [first[0]: "first"]
        #expect(names[second[0]] == "first" && names[second[1]] == nil)
    }
}
