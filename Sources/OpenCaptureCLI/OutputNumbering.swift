import Foundation

/// Numbers for the files a capture command names itself (`shoot`'s `photo-N`, `bracket`'s `bracket-N`, `live`'s
/// `live-N`): as a camera numbers IMG_0001, IMG_0002, … on, a new request takes the number after the highest one
/// already in the folder under its prefix, so a later run never replaces an earlier run's photos. The writes place
/// their files without replacing (`AtomicFile.write(…, replacing: false)`), so a file that appears meanwhile is kept;
/// `PrintingPhotoDelegate` then takes the next number.
enum OutputNumbering {
    /// The number after the highest `N` of any entry named `prefix-N`, `prefix-N.…` or `prefix-N-…` in `directory`;
    /// 1 when there is none (or no folder yet).
    static func next(_ prefix: String, in directory: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let highest = names.compactMap { number(in: $0, prefix: prefix) }.max() ?? 0
        return highest + 1
    }

    /// `N` of a name `prefix-N`, `prefix-N.…` or `prefix-N-…`; nil for any other name.
    static func number(in name: String, prefix: String) -> Int? {
        guard name.hasPrefix(prefix + "-") else { return nil }
        let digits = name.dropFirst(prefix.count + 1).prefix(while: { $0.isASCII && $0.isNumber })
        let rest = name.dropFirst(prefix.count + 1 + digits.count)
        guard !digits.isEmpty, rest.isEmpty || rest.first == "." || rest.first == "-" else { return nil }
        // Numbers up to 10¹⁸ (the next one still fits an Int); a longer run of digits is not one of ours.
        guard digits.count <= 18 else { return nil }
        return Int(digits)
    }
}
