// swift-tools-version: 6.0
// Fuzzing harness for MediaFormats' readers (libFuzzer + AddressSanitizer). A separate package so
// the main `swift build` and `scripts/test.sh` never see it; run it with `scripts/fuzz.sh`.
// Sources/CaptureCore, Sources/MediaFormats and the C library modules are symlinks to the
// main package's folders: the fuzzer builds exactly the code the library ships.
import PackageDescription

let package = Package(
    name: "MediaFormatsFuzz",
    targets: [
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg"),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng"),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4"),
        .systemLibrary(name: "CLibRaw"),
        .systemLibrary(name: "CHEIF", pkgConfig: "libheif"),
        .systemLibrary(name: "CX265", pkgConfig: "x265"),
        .target(name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        .target(name: "CaptureCore"),
        .target(name: "MediaFormats", dependencies: ["CaptureCore", "CJPEG", "CPNG", "CTIFF", "CLibRaw", "CHEIF", "CX265", "CFFmpeg"]),
        // The libFuzzer entry point (LLVMFuzzerTestOneInput); libFuzzer supplies main, so it is
        // built only with `-Xswiftc -sanitize=fuzzer,address`.
        .executableTarget(name: "MediaFormatsFuzz", dependencies: ["MediaFormats", "CaptureCore"],
                          swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
        // Writes the seed corpus with MediaFormats' own writers (built without sanitizers).
        .executableTarget(name: "make-seeds", dependencies: ["MediaFormats", "CaptureCore"]),
    ]
)
