import CaptureEngine
import Foundation
import MediaFormats

/// Apple's ImageIO-shaped metadata for a photo (`AVCapturePhoto.metadata`), built from the EXIF the
/// engine recorded, and the reverse: the EXIF overrides in a request's `settings.metadata`.
enum PhotoMetadataDictionary {
    /// The string fields of `{TIFF}` and `{Exif}`, the orientation and the `{GPS}` location that the EXIF writer knows.
    static func overrides(from metadata: [String: Any]) -> MetadataOverrides {
        var o = MetadataOverrides()
        if let tiff = metadata[kCGImagePropertyTIFFDictionary] as? [String: Any] {
            o.make = tiff[kCGImagePropertyTIFFMake] as? String
            o.model = tiff[kCGImagePropertyTIFFModel] as? String
            o.software = tiff[kCGImagePropertyTIFFSoftware] as? String
            o.artist = tiff[kCGImagePropertyTIFFArtist] as? String
            o.copyright = tiff[kCGImagePropertyTIFFCopyright] as? String
            o.imageDescription = tiff[kCGImagePropertyTIFFImageDescription] as? String
        }
        if let e = metadata[kCGImagePropertyExifDictionary] as? [String: Any] {
            o.userComment = e[kCGImagePropertyExifUserComment] as? String
            o.lensModel = e[kCGImagePropertyExifLensModel] as? String
            o.lensMake = e[kCGImagePropertyExifLensMake] as? String
        }
        if let value = metadata[kCGImagePropertyOrientation].flatMap(SettingsValue.double), (1...8).contains(Int(value)) {
            o.orientation = Int(value)
        }
        o.gps = try? gps(from: metadata)
        return o
    }

    /// The top-level keys whose values are dictionaries.
    private static let dictionaryKeys: Set<String> = [
        kCGImagePropertyExifDictionary, kCGImagePropertyExifAuxDictionary, kCGImagePropertyTIFFDictionary,
        kCGImagePropertyGPSDictionary, kCGImagePropertyIPTCDictionary, kCGImagePropertyJFIFDictionary,
        kCGImagePropertyMakerAppleDictionary, kCGImagePropertyHEIFDictionary,
    ]

    /// Throws `PhotoSettingsError.invalidMetadataValue` for values the photo could not carry as given: a sub-dictionary
    /// that is not a dictionary, an orientation that is not 1…8, a `{GPS}` dictionary `gps(from:)` rejects.
    static func validate(_ metadata: [String: Any]) throws {
        for key in metadata.keys.sorted() where dictionaryKeys.contains(key) && !(metadata[key] is [String: Any]) {
            throw PhotoSettingsError.invalidMetadataValue("\(key) is not a dictionary")
        }
        if let value = metadata[kCGImagePropertyOrientation] {
            guard let number = SettingsValue.double(value), number.rounded() == number, (1...8).contains(number) else {
                throw PhotoSettingsError.invalidMetadataValue("Orientation \(value) is not 1…8")
            }
        }
        _ = try gps(from: metadata)
        // The EXIF (one 64 KB APP1 segment in a JPEG) also holds the camera's fields and a thumbnail: the request's
        // text may take half of it.
        let o = overrides(from: metadata)
        let text = [o.make, o.model, o.software, o.artist, o.copyright, o.imageDescription, o.lensMake, o.lensModel]
            .compactMap { $0?.utf8.count }.reduce(0, +) + (o.userComment.map { ExifWriter.userCommentBytes($0).count } ?? 0)
        if text > maximumTextBytes {
            throw PhotoSettingsError.invalidMetadataValue("its text fields take \(text) bytes of EXIF, more than \(maximumTextBytes)")
        }
    }

    /// The most EXIF bytes a request's `{TIFF}`/`{Exif}` text may take (half of a JPEG's one APP1 segment).
    static let maximumTextBytes = JPEGEncoder.maxAPP1PayloadSize / 2

    /// The location in `metadata`'s `{GPS}` dictionary, ImageIO's keys: `Latitude` and `Longitude` in degrees (with
    /// `LatitudeRef` "N"/"S" and `LongitudeRef` "E"/"W"; without a reference a negative value is south or west),
    /// `Altitude` in metres (`AltitudeRef` 1 = below sea level), `DateStamp` "yyyy:MM:dd" with `TimeStamp`
    /// "HH:mm:ss.SS" (UTC), `Speed`/`SpeedRef`, `ImgDirection`/`ImgDirectionRef`, `HPositioningError`. Nil without a
    /// `{GPS}` dictionary; throws when it has no latitude and longitude in range or a value of the wrong kind.
    static func gps(from metadata: [String: Any]) throws -> GPSInfo? {
        guard let g = metadata[kCGImagePropertyGPSDictionary] as? [String: Any] else { return nil }
        func fail(_ why: String) -> PhotoSettingsError { .invalidMetadataValue("{GPS} \(why)") }
        func number(_ key: String) throws -> Double? {
            guard let value = g[key] else { return nil }
            if let n = SettingsValue.double(value), n.isFinite { return n }
            if let text = value as? String, let n = Double(text), n.isFinite { return n }
            throw fail("\(key) \(value) is not a number")
        }
        func reference(_ key: String, _ allowed: Set<String>) throws -> String? {
            guard let value = g[key] else { return nil }
            guard let text = value as? String, allowed.contains(text.uppercased()) else {
                throw fail("\(key) \(value) is not one of \(allowed.sorted().joined(separator: ", "))")
            }
            return text.uppercased()
        }
        func signed(_ key: String, _ refKey: String, positive: String, negative: String, limit: Double) throws -> Double {
            guard let value = try number(key) else { throw fail("has no \(key)") }
            let ref = try reference(refKey, [positive, negative])
            guard abs(value) <= limit else { throw fail("\(key) \(value) is outside ±\(Int(limit))°") }
            return ref == negative ? -abs(value) : ref == positive ? abs(value) : value
        }
        var info = GPSInfo(latitude: try signed(kCGImagePropertyGPSLatitude, kCGImagePropertyGPSLatitudeRef,
                                                positive: "N", negative: "S", limit: 90),
                           longitude: try signed(kCGImagePropertyGPSLongitude, kCGImagePropertyGPSLongitudeRef,
                                                 positive: "E", negative: "W", limit: 180))
        if let altitude = try number(kCGImagePropertyGPSAltitude) {
            let below = try number(kCGImagePropertyGPSAltitudeRef) == 1
            info.altitude = below ? -abs(altitude) : altitude
        }
        if let day = g[kCGImagePropertyGPSDateStamp] {
            let time = g[kCGImagePropertyGPSTimeStamp].map { "\($0)" } ?? "00:00:00"
            let parts = time.split(separator: ":").compactMap { Double($0) }
            guard let day = day as? String, parts.count == 3,
                  let date = GPSInfo.time(dateStamp: day, hours: parts[0], minutes: parts[1], seconds: parts[2]) else {
                throw fail("DateStamp \(day) with TimeStamp \(time) is no time (\"yyyy:MM:dd\", \"HH:mm:ss.SS\")")
            }
            info.timestamp = date
        }
        if let speed = try number(kCGImagePropertyGPSSpeed) {
            guard speed >= 0 else { throw fail("Speed \(speed) is negative") }
            info.speed = speed
            info.speedReference = try reference(kCGImagePropertyGPSSpeedRef, ["K", "M", "N"]) ?? "K"
        }
        if let direction = try number(kCGImagePropertyGPSImgDirection) {
            guard (0..<360).contains(direction) else { throw fail("ImgDirection \(direction) is outside 0…360°") }
            info.imageDirection = direction
            info.imageDirectionReference = try reference(kCGImagePropertyGPSImgDirectionRef, ["T", "M"]) ?? "T"
        }
        if let error = try number(kCGImagePropertyGPSHPositioningError) {
            guard error >= 0 else { throw fail("HPositioningError \(error) is negative") }
            info.horizontalError = error
        }
        return info
    }

    /// ImageIO's shape: `Orientation`, `{TIFF}`, `{Exif}`, `{MakerApple}`, with the request's overrides on top. The
    /// entries are the fields the photo's file carries (`ExifWriter.fields(for:)`, read back from the bytes written, so
    /// ShutterSpeedValue, ApertureValue, SubjectArea… say what the file says), by ImageIO's names (`ImageIOExifNames`);
    /// `{GPS}` is the request's own dictionary. Numbers are `NSNumber`s, as ImageIO's are, so they read as any numeric
    /// type that holds them exactly (AVCam's `metadata[kCGImagePropertyOrientation] as? UInt32`; a Swift `Int` in an
    /// `Any` reads only `as? Int` on Linux).
    static func make(_ exif: ExifMetadata, overrides: [String: Any]) -> [String: Any] {
        var tiff: [String: Any] = [:], e: [String: Any] = [:], maker: [String: Any] = [:]
        for field in ExifWriter.fields(for: exif) {
            guard let (key, value) = ImageIOExifNames.entry(field) else { continue }
            switch field.directory {
            case .image: tiff[key] = value
            case .exif: e[key] = value
            case .appleMakerNote: maker[key] = value
            case .gps: break
            }
        }
        var result: [String: Any] = [kCGImagePropertyOrientation: tiff[kCGImagePropertyTIFFOrientation] ?? exif.orientation,
                                     kCGImagePropertyTIFFDictionary: tiff, kCGImagePropertyExifDictionary: e,
                                     kCGImagePropertyMakerAppleDictionary: maker]
        for (key, value) in overrides {
            if let sub = value as? [String: Any], let existing = result[key] as? [String: Any] {
                result[key] = existing.merging(sub) { $1 }
            } else {
                result[key] = value
            }
        }
        return result.mapValues(bridged)
    }

    /// `value` with every number in it (in dictionaries and arrays too) as an `NSNumber`.
    static func bridged(_ value: Any) -> Any {
        switch value {
        case let number as NSNumber: return number
        case let dictionary as [String: Any]: return dictionary.mapValues(bridged)
        case let array as [Any]: return array.map(bridged)
        case let v as Int: return NSNumber(value: v)
        case let v as Double: return NSNumber(value: v)
        case let v as Float: return NSNumber(value: v)
        case let v as Bool: return NSNumber(value: v)
        case let v as UInt: return NSNumber(value: v)
        case let v as Int64: return NSNumber(value: v)
        case let v as UInt64: return NSNumber(value: v)
        case let v as Int32: return NSNumber(value: v)
        case let v as UInt32: return NSNumber(value: v)
        case let v as Int16: return NSNumber(value: v)
        case let v as UInt16: return NSNumber(value: v)
        case let v as Int8: return NSNumber(value: v)
        case let v as UInt8: return NSNumber(value: v)
        default: return value
        }
    }
}
