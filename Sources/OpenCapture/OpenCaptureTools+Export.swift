// The beyond-Apple tools (RawDeveloper, FileInspector, PhotoFusion, AtomicFile…) live in their own
// module, free of Apple names; re-exporting it keeps `import OpenCapture` enough for users.
@_exported import OpenCaptureTools
