/// The 24 ColorChecker patches as 8-bit sRGB (the widely published values), linearised.
enum MacbethChart {
    static let srgb8: [SIMD3<Double>] = [
        SIMD3(115, 82, 68), SIMD3(194, 150, 130), SIMD3(98, 122, 157), SIMD3(87, 108, 67), SIMD3(133, 128, 177),
        SIMD3(103, 189, 170), SIMD3(214, 126, 44), SIMD3(80, 91, 166), SIMD3(193, 90, 99), SIMD3(94, 60, 108),
        SIMD3(157, 188, 64), SIMD3(224, 163, 46), SIMD3(56, 61, 150), SIMD3(70, 148, 73), SIMD3(175, 54, 60),
        SIMD3(231, 199, 31), SIMD3(187, 86, 149), SIMD3(8, 133, 161), SIMD3(243, 243, 242), SIMD3(200, 200, 200),
        SIMD3(160, 160, 160), SIMD3(122, 122, 121), SIMD3(85, 85, 85), SIMD3(52, 52, 52),
    ]

    static let linear: [SIMD3<Double>] = srgb8.map { SIMD3(decode($0.x / 255), decode($0.y / 255), decode($0.z / 255)) }

    static func decode(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }
}

import Foundation
