/// How a resource is added to a new asset (Apple's `PHAssetResourceCreationOptions`).
public final class PHAssetResourceCreationOptions {
    /// Move the file into the library instead of copying it (for `addResource(with:fileURL:options:)`):
    /// the source is removed once the change has been saved. A file whose folder does not let it be removed (a
    /// read-only disk, no permission) refuses the change with `.invalidResource` before anything is saved; if the
    /// removal still fails after the save (the file itself locked), the change stands and the file stays.
    public var shouldMoveFile = false
    /// The file name the resource reports; by default the source file's name, or one made up from its type.
    public var originalFilename: String?
    /// The uniform type identifier of the data (e.g. "public.jpeg"). The data decides: one that contradicts it
    /// (public.png on JPEG bytes) refuses the change with `.invalidResource`; one that agrees (public.heif for a HEIC, a
    /// supertype such as public.image) is stored as the data's precise type. Kept as given only for data of no kind
    /// read here (audio other than MPEG-4).
    public var uniformTypeIdentifier: String?

    public init() {}
}
