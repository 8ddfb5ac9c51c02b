import MediaFormats

/// What kind of image file `FileInspector` found (OpenCapture addition): MediaFormats' `FileKind`,
/// the one list of file kinds, recognised by content. Named here so `import OpenCapture` is enough.
public typealias InspectedFileKind = FileKind
