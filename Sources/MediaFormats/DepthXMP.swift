import CaptureCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The one writer and parser of Apple's depth and matte XMP, the packet each auxiliary image
/// carries (a `mime` item linked by `cdsc` in HEIC, an APP1 segment of the MPF secondary JPEG):
///
/// - `apdi:` (http://ns.apple.com/pixeldatainfo/1.0/): AuxiliaryImageType, AuxiliaryImageSubType,
///   StoredFormat, NativeFormat, IntMinValue/IntMaxValue, FloatMinValue/FloatMaxValue.
/// - `depthData:` (http://ns.apple.com/depthData/1.0/): DepthDataVersion, Quality, Accuracy,
///   Filtered, IntrinsicMatrix (9, column-major), IntrinsicMatrixReferenceWidth/Height,
///   ExtrinsicMatrix (12, column-major, translation in mm), PixelSize (mm),
///   LensDistortionCenterOffsetX/Y (pixels), LensDistortionCoefficients and
///   InverseLensDistortionCoefficients.
/// - `portraitEffectsMatte:PortraitEffectsMatteVersion`.
///
/// Distortion: an iPhone stores polynomial coefficients in Apple's two coefficient fields, while
/// `CameraCalibration` holds Apple's look-up tables (as `AVCameraCalibrationData` delivers them)
/// and no polynomial. The writer stores the tables faithfully, as rdf:Seq in OpenCapture's own
/// namespace (`ocDepth:LensDistortionLookupTable`, `ocDepth:InverseLensDistortionLookupTable`),
/// and writes Apple's coefficient fields only when they are known (`AuxiliaryImageMetadata`'s
/// coefficient arrays, e.g. read from an iPhone file) or when there is no distortion at all
/// (8 zeros, true for a pinhole camera). It never puts table values into the polynomial fields.
public enum DepthXMP {
    public static let pixelDataInfoNamespace = "http://ns.apple.com/pixeldatainfo/1.0/"
    public static let depthDataNamespace = "http://ns.apple.com/depthData/1.0/"
    public static let portraitEffectsMatteNamespace = "http://ns.apple.com/portraitEffectsMatte/1.0/"
    /// OpenCapture's namespace for what Apple's fields cannot hold (the distortion look-up tables).
    public static let openCaptureDepthNamespace = "http://ns.opencapture.invalid/depthData/1.0/"
    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"

    /// `depthData:DepthDataVersion` an iPhone writes (iOS 12 and later).
    public static let depthDataVersion = 65541
    /// `portraitEffectsMatte:PortraitEffectsMatteVersion` an iPhone writes.
    public static let portraitEffectsMatteVersion = 65537
    /// The largest packet `parse` accepts.
    public static let maxPacketSize = 1 << 20

    // MARK: - Writing

    /// The XMP packet (`x:xmpmeta`, UTF-8) for `metadata`; fields that are nil are left out.
    public static func packet(_ m: AuxiliaryImageMetadata) -> Data {
        var lines: [String] = []
        func add(_ name: String, _ value: String?) {
            guard let value else { return }
            lines.append("         <\(name)>\(escaped(value))</\(name)>")
        }
        func seq(_ name: String, _ values: [String]) {
            lines.append("         <\(name)>")
            lines.append("            <rdf:Seq>")
            for v in values { lines.append("               <rdf:li>\(escaped(v))</rdf:li>") }
            lines.append("            </rdf:Seq>")
            lines.append("         </\(name)>")
        }
        add("apdi:AuxiliaryImageType", m.auxiliaryImageType)
        add("apdi:AuxiliaryImageSubType", m.auxiliaryImageSubType)
        add("apdi:StoredFormat", m.storedFormat.map { String($0.rawValue) })
        add("apdi:NativeFormat", m.nativeFormat.map { String($0.rawValue) })
        add("apdi:IntMinValue", m.intMinValue.map(String.init))
        add("apdi:IntMaxValue", m.intMaxValue.map(String.init))
        add("apdi:FloatMinValue", m.floatMinValue.map { "\($0)" })
        add("apdi:FloatMaxValue", m.floatMaxValue.map { "\($0)" })
        add("depthData:DepthDataVersion", m.depthDataVersion.map(String.init))
        add("depthData:Quality", m.quality.map { $0 == .high ? "high" : "low" })
        add("depthData:Accuracy", m.accuracy.map { $0 == .absolute ? "absolute" : "relative" })
        add("depthData:Filtered", m.isFiltered.map { $0 ? "True" : "False" })
        var usesOpenCapture = false
        if let c = m.calibration {
            seq("depthData:IntrinsicMatrix", c.intrinsicMatrixColumnMajor.map { "\($0)" })
            add("depthData:IntrinsicMatrixReferenceWidth", String(c.referenceDimensions.width))
            add("depthData:IntrinsicMatrixReferenceHeight", String(c.referenceDimensions.height))
            seq("depthData:ExtrinsicMatrix", c.extrinsicMatrixColumnMajor.map { "\($0)" })
            add("depthData:PixelSize", "\(c.pixelSize)")
            add("depthData:LensDistortionCenterOffsetX", "\(c.lensDistortionCenter.x)")
            add("depthData:LensDistortionCenterOffsetY", "\(c.lensDistortionCenter.y)")
            let noDistortion = (c.lensDistortionLookupTable + c.inverseLensDistortionLookupTable).allSatisfy { $0 == 0 }
            let forward = !m.lensDistortionCoefficients.isEmpty ? m.lensDistortionCoefficients : noDistortion ? Array(repeating: 0, count: 8) : []
            let inverse = !m.inverseLensDistortionCoefficients.isEmpty ? m.inverseLensDistortionCoefficients
                : noDistortion ? Array(repeating: 0, count: 8) : []
            if !forward.isEmpty { seq("depthData:LensDistortionCoefficients", forward.map { "\($0)" }) }
            if !inverse.isEmpty { seq("depthData:InverseLensDistortionCoefficients", inverse.map { "\($0)" }) }
            if !c.lensDistortionLookupTable.isEmpty {
                seq("ocDepth:LensDistortionLookupTable", c.lensDistortionLookupTable.map { "\($0)" })
                usesOpenCapture = true
            }
            if !c.inverseLensDistortionLookupTable.isEmpty {
                seq("ocDepth:InverseLensDistortionLookupTable", c.inverseLensDistortionLookupTable.map { "\($0)" })
                usesOpenCapture = true
            }
        } else {
            if !m.lensDistortionCoefficients.isEmpty { seq("depthData:LensDistortionCoefficients", m.lensDistortionCoefficients.map { "\($0)" }) }
            if !m.inverseLensDistortionCoefficients.isEmpty {
                seq("depthData:InverseLensDistortionCoefficients", m.inverseLensDistortionCoefficients.map { "\($0)" })
            }
        }
        add("portraitEffectsMatte:PortraitEffectsMatteVersion", m.portraitEffectsMatteVersion.map(String.init))

        var namespaces = ["apdi": pixelDataInfoNamespace]
        if lines.contains(where: { $0.contains("<depthData:") }) { namespaces["depthData"] = depthDataNamespace }
        if m.portraitEffectsMatteVersion != nil { namespaces["portraitEffectsMatte"] = portraitEffectsMatteNamespace }
        if usesOpenCapture { namespaces["ocDepth"] = openCaptureDepthNamespace }
        let declarations = namespaces.sorted { $0.key < $1.key }.map { "\n            xmlns:\($0.key)=\"\($0.value)\"" }.joined()
        let text = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="OpenCapture">
               <rdf:RDF xmlns:rdf="\(rdfNamespace)">
                  <rdf:Description rdf:about=""\(declarations)>
            \(lines.joined(separator: "\n"))
                  </rdf:Description>
               </rdf:RDF>
            </x:xmpmeta>

            """
        return Data(text.utf8)
    }

    private static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    // MARK: - Parsing

    /// Reads Apple's fields from an XMP packet (element or attribute form, any prefixes: names are
    /// matched by namespace URI). Throws `.invalidMetadata` for malformed XML, an oversized packet,
    /// or a field whose value is not what Apple's schema says (e.g. a non-numeric StoredFormat).
    public static func parse(_ packet: Data) throws -> AuxiliaryImageMetadata {
        guard packet.count <= maxPacketSize else {
            throw MediaFormatError.invalidMetadata("XMP packet of \(packet.count) bytes is larger than \(maxPacketSize)")
        }
        // XMP is UTF-8 (ISO 16684-1). Anything else is refused before libxml2 sees it: its encoding
        // sniffing would read binary as UCS-4, and FoundationXML traps on some names it then reports
        // (fuzzing found one: Tests/Fixtures/MediaFormats/Fuzz/heif-depth-xmp-binary-garbage.heic).
        guard let text = String(validating: packet, as: UTF8.self) else {
            throw MediaFormatError.invalidMetadata("XMP is not UTF-8")
        }
        guard text.contains("<") else { throw MediaFormatError.invalidMetadata("XMP packet holds no XML element") }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 && ![0x09, 0x0A, 0x0D].contains($0.value) }) else {
            throw MediaFormatError.invalidMetadata("XMP holds control characters")
        }
        if let declaration = text.range(of: "<?xml"), let end = text[declaration.upperBound...].range(of: "?>") {
            let body = text[declaration.upperBound..<end.lowerBound].lowercased()
            if body.contains("encoding"), !body.contains("utf-8"), !body.contains("utf8") {
                throw MediaFormatError.invalidMetadata("XMP declares an encoding other than UTF-8")
            }
        }
        // XMP may be wrapped in <?xpacket?> processing instructions and padded: XMLParser handles those.
        let collector = XMPCollector()
        let parser = XMLParser(data: packet)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        guard parser.parse(), collector.failure == nil else {
            let why = collector.failure ?? parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown XML error"
            throw MediaFormatError.invalidMetadata("XMP is not well-formed XML: \(why)")
        }
        return try metadata(from: collector)
    }

    private static func metadata(from c: XMPCollector) throws -> AuxiliaryImageMetadata {
        func text(_ ns: String, _ name: String) -> String? { c.scalars[ns + name]?.trimmingCharacters(in: .whitespacesAndNewlines) }
        func int(_ ns: String, _ name: String) throws -> Int? {
            guard let t = text(ns, name) else { return nil }
            guard let v = Int(t) else { throw MediaFormatError.invalidMetadata("\(name) '\(t)' is not an integer") }
            return v
        }
        func double(_ ns: String, _ name: String) throws -> Double? {
            guard let t = text(ns, name) else { return nil }
            guard let v = Double(t), v.isFinite else { throw MediaFormatError.invalidMetadata("\(name) '\(t)' is not a number") }
            return v
        }
        func doubles(_ ns: String, _ name: String) throws -> [Double]? {
            guard let items = c.sequences[ns + name] else { return nil }
            return try items.map { t in
                guard let v = Double(t.trimmingCharacters(in: .whitespacesAndNewlines)), v.isFinite else {
                    throw MediaFormatError.invalidMetadata("\(name) holds '\(t)', not a number")
                }
                return v
            }
        }
        func fourCC(_ name: String) throws -> FourCC? {
            guard let v = try int(pixelDataInfoNamespace, name) else { return nil }
            guard let code = UInt32(exactly: v) else { throw MediaFormatError.invalidMetadata("\(name) \(v) is not a 32-bit code") }
            return FourCC(rawValue: code)
        }
        func float(_ name: String) throws -> Float? {
            try double(pixelDataInfoNamespace, name).map { Float($0) }
        }
        let p = pixelDataInfoNamespace, d = depthDataNamespace
        var m = AuxiliaryImageMetadata()
        m.auxiliaryImageType = text(p, "AuxiliaryImageType")
        m.auxiliaryImageSubType = text(p, "AuxiliaryImageSubType")
        m.storedFormat = try fourCC("StoredFormat")
        m.nativeFormat = try fourCC("NativeFormat")
        m.intMinValue = try int(p, "IntMinValue")
        m.intMaxValue = try int(p, "IntMaxValue")
        m.floatMinValue = try float("FloatMinValue")
        m.floatMaxValue = try float("FloatMaxValue")
        m.depthDataVersion = try int(d, "DepthDataVersion")
        if let q = text(d, "Quality") {
            switch q.lowercased() {
            case "high": m.quality = .high
            case "low": m.quality = .low
            default: throw MediaFormatError.invalidMetadata("depthData:Quality '\(q)' is neither high nor low")
            }
        }
        if let a = text(d, "Accuracy") {
            switch a.lowercased() {
            case "absolute": m.accuracy = .absolute
            case "relative": m.accuracy = .relative
            default: throw MediaFormatError.invalidMetadata("depthData:Accuracy '\(a)' is neither absolute nor relative")
            }
        }
        if let f = text(d, "Filtered") {
            switch f.lowercased() {
            case "true", "1": m.isFiltered = true
            case "false", "0": m.isFiltered = false
            default: throw MediaFormatError.invalidMetadata("depthData:Filtered '\(f)' is not a boolean")
            }
        }
        m.lensDistortionCoefficients = try doubles(d, "LensDistortionCoefficients") ?? []
        m.inverseLensDistortionCoefficients = try doubles(d, "InverseLensDistortionCoefficients") ?? []
        m.portraitEffectsMatteVersion = try int(portraitEffectsMatteNamespace, "PortraitEffectsMatteVersion")

        if let k = try doubles(d, "IntrinsicMatrix"), let w = try int(d, "IntrinsicMatrixReferenceWidth"),
           let h = try int(d, "IntrinsicMatrixReferenceHeight") {
            guard k.count == 9 else { throw MediaFormatError.invalidMetadata("depthData:IntrinsicMatrix has \(k.count) values, not 9") }
            guard w > 0, h > 0, w <= ImageLimits.maxSide, h <= ImageLimits.maxSide else {
                throw MediaFormatError.invalidMetadata("intrinsic matrix reference size \(w)×\(h)")
            }
            var rotation = Matrix3.identity
            var translation = SIMD3<Double>.zero
            if let e = try doubles(d, "ExtrinsicMatrix") {
                guard e.count == 12 else { throw MediaFormatError.invalidMetadata("depthData:ExtrinsicMatrix has \(e.count) values, not 12") }
                for column in 0..<3 { for row in 0..<3 { rotation[row, column] = e[column * 3 + row] } }
                translation = SIMD3(e[9], e[10], e[11]) / 1000
            }
            func table(_ name: String) throws -> [Float] {
                try (doubles(openCaptureDepthNamespace, name) ?? []).map { Float($0) }
            }
            let center: SIMD2<Double>?
            if let cx = try double(d, "LensDistortionCenterOffsetX"), let cy = try double(d, "LensDistortionCenterOffsetY") {
                center = SIMD2(cx, cy)
            } else {
                center = nil
            }
            m.calibration = CameraCalibration(
                focalLength: SIMD2(k[0], k[4]), principalPoint: SIMD2(k[6], k[7]), referenceDimensions: Size(width: w, height: h),
                rotation: rotation, translation: translation, pixelSize: try double(d, "PixelSize") ?? 0,
                lensDistortionLookupTable: try table("LensDistortionLookupTable"),
                inverseLensDistortionLookupTable: try table("InverseLensDistortionLookupTable"), lensDistortionCenter: center)
        }
        return m
    }
}

/// Collects the simple properties and rdf:Seq/rdf:Bag items of an XMP packet's rdf:Description
/// elements, keyed by namespace URI + local name.
private final class XMPCollector: NSObject, XMLParserDelegate {
    var scalars: [String: String] = [:]
    var sequences: [String: [String]] = [:]
    var failure: String?
    private var prefixes: [String: [String]] = [:]
    /// Open elements: (namespace + local name).
    private var stack: [String] = []
    private var text = ""
    private static let rdf = DepthXMP.rdfNamespace
    private static let description = rdf + "Description"
    private static let item = rdf + "li"

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        prefixes[prefix, default: []].append(namespaceURI)
    }

    func parser(_ parser: XMLParser, didEndMappingPrefix prefix: String) {
        _ = prefixes[prefix]?.popLast()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let key = (namespaceURI ?? "") + elementName
        if key == Self.description {
            // Attribute form: <rdf:Description apdi:StoredFormat="1278226488" …>
            for (name, value) in attributes {
                let parts = name.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let uri = prefixes[String(parts[0])]?.last, uri != Self.rdf else { continue }
                scalars[uri + parts[1]] = value
            }
        }
        stack.append(key)
        text = ""
        if stack.count > 64 { failure = "elements nested more than 64 deep"; parser.abortParsing() }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard text.utf8.count < DepthXMP.maxPacketSize else { return }
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        let key = (namespaceURI ?? "") + elementName
        defer { if !stack.isEmpty { stack.removeLast() } }
        let n = stack.count
        if key == Self.item, n >= 3 {
            // property > rdf:Seq|rdf:Bag|rdf:Alt > rdf:li
            sequences[stack[n - 3], default: []].append(text)
        } else if n >= 2, stack[n - 2] == Self.description {
            if sequences[key] == nil { scalars[key] = text }
        }
        text = ""
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if failure == nil { failure = "\(parseError.localizedDescription) at line \(parser.lineNumber)" }
    }
}
