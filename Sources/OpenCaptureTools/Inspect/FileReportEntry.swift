/// One line of a `FileReport`: a named value in a section such as "EXIF" or "DNG" (OpenCapture addition).
public struct FileReportEntry: Sendable, Equatable {
    public var section: String
    public var name: String
    public var value: String

    public init(section: String, name: String, value: String) {
        self.section = section
        self.name = name
        self.value = value
    }
}
