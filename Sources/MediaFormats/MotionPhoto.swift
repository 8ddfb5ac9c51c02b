import Foundation

/// Google's Motion Photo (Camera XMP `GCamera:MotionPhoto` v1): a still whose XMP describes a container of the
/// primary image and an MPEG-4 video appended after it. A JPEG also carries the older `MicroVideo` fields Samsung
/// and older Google Photos read; in a HEIC the video sits in a top-level `mpvd` box after the image's boxes,
/// whose 8-byte header is the primary item's padding.
public enum MotionPhoto {
    /// What `read` finds.
    public struct Info: Sendable, Equatable {
        /// Byte range of the embedded video in the file.
        public var video: Range<Int>
        /// The still's moment in the video, microseconds (−1: unspecified).
        public var presentationTimestampUs: Int64
    }

    static let xmpPrefix = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// `jpeg` with Motion Photo XMP (replacing any XMP it had) followed by `video` (an MP4). Only the primary image is
    /// kept: images after it (a portrait's depth and matte) and the MPF index that points at them are left out, so no
    /// index points into the video.
    public static func make(jpeg: Data, video: Data, presentationTimestampUs: Int64) throws -> Data {
        let bytes = [UInt8](jpeg)
        let segments = try JPEGSegments.segments(in: bytes)
        guard let scan = segments.last, scan.marker == 0xDA else { throw MediaFormatError.truncated }
        guard let end = JPEGSegments.endOfImage(bytes, after: scan.payload.upperBound) else { throw MediaFormatError.truncated }
        let xmp = Array(xmpPacket(videoLength: video.count, presentationTimestampUs: presentationTimestampUs, heic: false).utf8)
        let payload = xmpPrefix + xmp
        guard payload.count + 2 <= 0xFFFF else { throw MediaFormatError.unsupported("Motion Photo XMP longer than one segment") }
        // After SOI and the APP0/APP1 segments that lead the file (JFIF, Exif), before anything else.
        let kept = segments.dropLast().filter { !isXMP($0, bytes) && !isMPF($0, bytes) }
        var insertAt = kept.firstIndex { !($0.marker == 0xE0 || $0.marker == 0xE1) } ?? kept.count
        if insertAt > kept.count { insertAt = kept.count }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count + payload.count + video.count + 4)
        for (index, segment) in kept.enumerated() {
            if index == insertAt { appendSegment(&out, payload) }
            out += bytes[segment.offset..<segment.payload.upperBound]
        }
        if insertAt == kept.count { appendSegment(&out, payload) }
        out += bytes[scan.offset..<end]
        return Data(out) + video
    }

    /// The XMP packet a HEIC Motion Photo's still carries (pass it as `HEIFEncodingOptions.xmp`), for a video of
    /// `videoLength` bytes that `appendVideo(_:toHEIC:)` adds.
    public static func heicXMP(videoLength: Int, presentationTimestampUs: Int64) -> Data {
        Data(xmpPacket(videoLength: videoLength, presentationTimestampUs: presentationTimestampUs, heic: true).utf8)
    }

    /// `heic` (whose XMP is `heicXMP`) followed by a top-level `mpvd` box holding `video` (an MP4).
    public static func appendVideo(_ video: Data, toHEIC heic: Data) throws -> Data {
        guard FileKind.of(heic) == .heif else { throw MediaFormatError.unsupported("a Motion Photo video box needs a HEIF still") }
        let size = video.count + 8
        guard size <= Int(UInt32.max) else { throw MediaFormatError.unsupported("a Motion Photo video of \(video.count) bytes") }
        var box = Data([UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        box += Data("mpvd".utf8)
        return heic + box + video
    }

    /// The Motion Photo description of `data` (a JPEG or HEIC), or nil when it has none.
    public static func read(_ data: Data) throws -> Info? {
        let text: String, isHEIF = FileKind.of(data) == .heif
        if isHEIF {
            guard let xmp = try HEIFStructure.parse(data).xmp else { return nil }
            text = String(decoding: xmp, as: UTF8.self)
        } else {
            let bytes = [UInt8](data)
            let segments = try JPEGSegments.segments(in: bytes)
            guard let xmpSegment = segments.first(where: { isXMP($0, bytes) }) else { return nil }
            text = String(decoding: bytes[(xmpSegment.payload.lowerBound + xmpPrefix.count)..<xmpSegment.payload.upperBound], as: UTF8.self)
        }
        let total = data.count
        guard text.contains("GCamera:MotionPhoto=\"1\"") || text.contains("GCamera:MicroVideo=\"1\"") else { return nil }
        // The container directory's MotionPhoto item (the current format) first, the older MicroVideoOffset after it.
        var length: Int?
        if let item = text.range(of: "Item:Semantic=\"MotionPhoto\"") {
            length = attribute("Item:Length", in: String(text[item.lowerBound...])).flatMap(Int.init)
        }
        if length == nil { length = attribute("GCamera:MicroVideoOffset", in: text).flatMap(Int.init) }
        guard let length, length > 0, length <= total else { throw MediaFormatError.invalidMetadata("Motion Photo XMP gives no valid video length") }
        let stamp = (attribute("GCamera:MotionPhotoPresentationTimestampUs", in: text)
                     ?? attribute("GCamera:MicroVideoPresentationTimestampUs", in: text)).flatMap { Int64($0) } ?? -1
        // The video (an MPEG-4 file) ends the file (a HEIC's in its top-level `mpvd` box, however many bytes follow):
        // its first box is `ftyp`. Anything else there means the file was cut short or changed after the XMP was
        // written, and the range would point into the still.
        func isMovie(at offset: Int) -> Bool {
            offset >= 0 && offset + 8 <= total && data[(data.startIndex + offset + 4)..<(data.startIndex + offset + 8)].elementsEqual("ftyp".utf8)
        }
        if isHEIF, let box = BMFFReader(data).leadingWholeBoxes().first(where: { $0.type == "mpvd" }),
           isMovie(at: box.body.lowerBound) {
            return Info(video: box.body, presentationTimestampUs: stamp)
        }
        guard length >= 8, isMovie(at: total - length) else {
            throw MediaFormatError.invalidMetadata("the Motion Photo's video is not in its last \(length) bytes, where its XMP puts it "
                + "(the file was cut short or changed)")
        }
        return Info(video: (total - length)..<total, presentationTimestampUs: stamp)
    }

    static func xmpPacket(videoLength: Int, presentationTimestampUs: Int64, heic: Bool) -> String {
        let microVideo = heic ? "" : """

                    GCamera:MicroVideo="1"
                    GCamera:MicroVideoVersion="1"
                    GCamera:MicroVideoOffset="\(videoLength)"
                    GCamera:MicroVideoPresentationTimestampUs="\(presentationTimestampUs)"
            """
        let (mime, padding) = heic ? ("image/heic", 8) : ("image/jpeg", 0)
        // Wrapped in the xpacket processing instructions XMP readers expect (exiftool warns without them).
        return """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="OpenCapture">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
            xmlns:Container="http://ns.google.com/photos/1.0/container/"
            xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
            GCamera:MotionPhoto="1"
            GCamera:MotionPhotoVersion="1"
            GCamera:MotionPhotoPresentationTimestampUs="\(presentationTimestampUs)"\(microVideo)>
           <Container:Directory>
            <rdf:Seq>
             <rdf:li rdf:parseType="Resource">
              <Container:Item Item:Mime="\(mime)" Item:Semantic="Primary" Item:Length="0" Item:Padding="\(padding)"/>
             </rdf:li>
             <rdf:li rdf:parseType="Resource">
              <Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\(videoLength)" Item:Padding="0"/>
             </rdf:li>
            </rdf:Seq>
           </Container:Directory>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    private static func isXMP(_ segment: JPEGSegment, _ bytes: [UInt8]) -> Bool {
        segment.marker == 0xE1 && segment.payload.count >= xmpPrefix.count
            && Array(bytes[segment.payload.lowerBound..<(segment.payload.lowerBound + xmpPrefix.count)]) == xmpPrefix
    }

    private static func isMPF(_ segment: JPEGSegment, _ bytes: [UInt8]) -> Bool {
        segment.marker == 0xE2 && bytes[segment.payload].starts(with: Array("MPF".utf8) + [0])
    }

    private static func appendSegment(_ out: inout [UInt8], _ payload: [UInt8]) {
        let length = payload.count + 2
        out += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
        out += payload
    }

    private static func attribute(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: name + "=\"") else { return nil }
        guard let end = text[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(text[start.upperBound..<end])
    }
}
