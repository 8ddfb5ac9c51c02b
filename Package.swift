// swift-tools-version: 6.2
// (6.2: a package whose targets carry unsafe flags — the CPU flag below — can be a versioned dependency.)
import PackageDescription

/// Release builds are compiled for the CPU of the machine that builds them (`-target-cpu native`: AVX2 vectors where
/// the CPU has them, the first photo ≈ 15 % sooner); the photos' bytes do not depend on it (Swift fuses no
/// multiply-adds). A binary meant for other machines sets `OPENCAPTURE_TARGET_CPU` when it is built: a CPU name
/// `swiftc -target-cpu` takes (`x86-64` for any 64-bit PC, `haswell`, …), or `generic` for the toolchain's default.
let targetCPU = Context.environment["OPENCAPTURE_TARGET_CPU"] ?? "native"
let cpuSettings: [SwiftSetting] = targetCPU == "generic" || targetCPU.isEmpty
    ? [] : [.unsafeFlags(["-target-cpu", targetCPU], .when(configuration: .release))]

/// The engine's pixel loops are optimised in debug builds too (`swift build`, `swift run`: what a package depending on
/// OpenCapture gets by default): unoptimised, a 12 MP photo takes a minute instead of a quarter second.
/// `OPENCAPTURE_DEBUG_ONONE=1` at build time leaves them unoptimised (to step through them, for coverage or sanitizers).
let optimizedInDebug: [SwiftSetting] = Context.environment["OPENCAPTURE_DEBUG_ONONE"] == "1"
    ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "OpenCapture",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "OpenCapture", targets: ["OpenCapture"]),
        .library(name: "OpenCapturePhotos", targets: ["OpenCapturePhotos"]),
        .executable(name: "opencapture", targets: ["OpenCaptureCLI"]),
        .executable(name: "opencapture-bench", targets: ["OpenCaptureBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),   // (Hummingbird's; the studio names its IOError)
    ],
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4",
                       providers: [.apt(["libtiff-dev"])]),
        // LibRaw's pkg-config file adds -fopenmp, which SwiftPM rejects with a warning; the
        // headers are in the default include path and the module map links libraw_r.
        .systemLibrary(name: "CLibRaw", providers: [.apt(["libraw-dev"])]),
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif",
                       providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CX265", pkgConfig: "x265",
                       providers: [.apt(["libx265-dev"])]),
        // Movies (QuickTime with H.264/HEVC and AAC) through libavformat/libavcodec with libx264/libx265, loaded on
        // first use (dlopen) so the ≈ 100 libraries FFmpeg pulls in do not slow every process start. Its headers come
        // from Debian's libavformat-dev / libavcodec-dev in the default include path (scripts/install-deps.sh).
        .target(name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        // SHA-256 for the photo library's content-addressed store (OpenSSL's libcrypto).
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),

        // Engine modules, one concern each; imports point up this list.
        .target(name: "CaptureCore"),
        .target(name: "CameraSimulation", dependencies: ["CaptureCore"]),
        .target(name: "ImagePipeline", dependencies: ["CaptureCore"]),
        .target(name: "MediaFormats", dependencies: ["CaptureCore", "CJPEG", "CPNG", "CTIFF", "CLibRaw", "CHEIF", "CX265", "CFFmpeg"]),
        .target(name: "Fusion", dependencies: ["CaptureCore"]),
        // Stereo matching, structured-light decoding, depth filtering, mattes, synthetic depth of field.
        .target(name: "Depth", dependencies: ["CaptureCore"]),
        // The Swift-native capture engine: request snapshots, plans, frame sources, encoders, events.
        .target(name: "CaptureEngine",
                dependencies: ["CaptureCore", "CameraSimulation", "ImagePipeline", "MediaFormats", "Depth"]),

        // Beyond Apple's API: raw developer, file inspector, bracket fusion. No Apple names.
        .target(name: "OpenCaptureTools", dependencies: ["CaptureCore", "ImagePipeline", "MediaFormats", "Fusion", "Depth"]),

        // The Apple-compatible surface; re-exports OpenCaptureTools so `import OpenCapture` is enough.
        .target(name: "OpenCapture",
                dependencies: ["CaptureCore", "CameraSimulation", "ImagePipeline", "MediaFormats", "Fusion", "Depth",
                               "CaptureEngine", "OpenCaptureTools"]),

        // The PhotoKit subset (PHPhotoLibrary, PHAssetCreationRequest, PHAsset, …) over SQLite and a file store.
        .target(name: "OpenCapturePhotos", dependencies: [
            "CaptureCore", "MediaFormats", "COpenSSL", .product(name: "GRDB", package: "GRDB.swift"),
        ]),

        // `opencapture studio`: the browser camera app (a Hummingbird server on loopback and its page).
        .target(name: "OpenCaptureStudio", dependencies: [
            "OpenCapture", "OpenCapturePhotos", "CaptureCore", "MediaFormats", "ImagePipeline", "Depth",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),

        .executableTarget(name: "OpenCaptureCLI", dependencies: [
            "OpenCapture", "OpenCapturePhotos", "OpenCaptureStudio", "CaptureCore", "MediaFormats", "Depth",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "OpenCaptureBench", dependencies: [
            "OpenCapture", "OpenCapturePhotos", "CaptureCore", "CameraSimulation", "CaptureEngine", "ImagePipeline", "MediaFormats", "Fusion", "Depth",
        ]),

        // What every test target shares: the external-tool runner (exiftool, dcraw_emu, heif-info …,
        // for `.enabled(if:)`) and the one helper that finds ../shared. Depends on Foundation only.
        .target(name: "OpenCaptureTestSupport", dependencies: ["CaptureCore", "MediaFormats"], path: "Tests/TestSupport"),

        .testTarget(name: "CaptureCoreTests", dependencies: ["CaptureCore", "OpenCaptureTestSupport"]),
        .testTarget(name: "CameraSimulationTests", dependencies: ["CameraSimulation", "OpenCaptureTestSupport"]),
        .testTarget(name: "ImagePipelineTests", dependencies: ["ImagePipeline", "OpenCaptureTestSupport"]),
        .testTarget(name: "MediaFormatsTests", dependencies: ["MediaFormats", "OpenCaptureTestSupport"]),
        .testTarget(name: "DepthTests", dependencies: ["Depth", "CaptureCore", "CameraSimulation", "OpenCaptureTestSupport"]),
        .testTarget(name: "FusionTests", dependencies: ["Fusion", "MediaFormats", "OpenCaptureTestSupport"]),
        .testTarget(name: "CaptureEngineTests", dependencies: [
            "CaptureEngine", "CameraSimulation", "CaptureCore", "ImagePipeline", "MediaFormats", "OpenCaptureTestSupport",
        ]),
        .testTarget(name: "OpenCaptureToolsTests", dependencies: [
            "OpenCaptureTools", "CaptureCore", "CameraSimulation", "ImagePipeline", "MediaFormats", "OpenCaptureTestSupport",
        ]),
        // Runs the built `opencapture` binary on hostile input (skipped when it is not built).
        .testTarget(name: "OpenCaptureCLITests", dependencies: ["CaptureCore", "MediaFormats", "OpenCaptureTestSupport"]),
        .testTarget(name: "OpenCaptureTests", dependencies: [
            "OpenCapture", "CaptureEngine", "CaptureCore", "CameraSimulation", "ImagePipeline", "MediaFormats",
            "OpenCaptureTestSupport",
        ]),
        // Apple's sample code, compiled unchanged in Swift 5 mode against OpenCapture.
        .testTarget(name: "OpenCaptureStudioTests", dependencies: [
            "OpenCaptureStudio", "OpenCapturePhotos", "MediaFormats", "CaptureCore", "OpenCaptureTestSupport",
        ]),
        .testTarget(name: "OpenCapturePhotosTests", dependencies: ["OpenCapturePhotos", "MediaFormats", "CaptureCore", "OpenCaptureTestSupport",
                                                               .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "AppleSampleCodeTests", dependencies: ["OpenCapture", "OpenCapturePhotos", "OpenCaptureTestSupport"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)

let engineTargets: Set = ["CaptureCore", "CameraSimulation", "ImagePipeline", "MediaFormats", "Fusion", "Depth",
                          "CaptureEngine", "OpenCaptureTools"]
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + cpuSettings + (engineTargets.contains(target.name) ? optimizedInDebug : [])
}
