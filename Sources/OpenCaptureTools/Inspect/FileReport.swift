/// What an image file holds, as found by `FileInspector` (OpenCapture addition): its kind, size,
/// and named values by section (File, EXIF, Thumbnail, ICC, DNG, PNG, HEIF), printable as lines.
public struct FileReport: Sendable, Equatable, CustomStringConvertible {
    public var kind: InspectedFileKind
    /// Image size (for a raw file: the visible mosaic), when the header says.
    public var width: Int?
    public var height: Int?
    /// Embedded thumbnail or DNG preview size.
    public var thumbnailWidth: Int?
    public var thumbnailHeight: Int?
    /// The embedded ICC profile's description.
    public var iccProfileDescription: String?
    /// Every value found, in report order.
    public var entries: [FileReportEntry]
    /// Parts of the file found damaged while the rest was read (an embedded depth map or Motion Photo video cut short):
    /// each also shows among `entries`; `opencapture inspect` prints the report and exits 1.
    public var problems: [String] = []

    public init(kind: InspectedFileKind, width: Int? = nil, height: Int? = nil, thumbnailWidth: Int? = nil,
                thumbnailHeight: Int? = nil, iccProfileDescription: String? = nil, entries: [FileReportEntry] = []) {
        self.kind = kind
        self.width = width
        self.height = height
        self.thumbnailWidth = thumbnailWidth
        self.thumbnailHeight = thumbnailHeight
        self.iccProfileDescription = iccProfileDescription
        self.entries = entries
    }

    /// The first value named `name` (e.g. "Model", "DNGVersion"), in any section.
    public subscript(name: String) -> String? { entries.first { $0.name == name }?.value }

    /// The first value named `name` in `section`.
    public func value(_ name: String, in section: String) -> String? {
        entries.first { $0.section == section && $0.name == name }?.value
    }

    /// One line per section header and per value, values indented under their section.
    public var lines: [String] {
        var sections: [String] = []
        for entry in entries where !sections.contains(entry.section) { sections.append(entry.section) }
        var out: [String] = []
        for section in sections {
            out.append(section)
            for entry in entries where entry.section == section { out.append("  \(entry.name): \(entry.value)") }
        }
        return out
    }

    public var description: String { lines.joined(separator: "\n") }
}
