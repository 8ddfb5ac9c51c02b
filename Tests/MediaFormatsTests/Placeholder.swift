import Testing
@testable import MediaFormats

@Test func MediaFormatsBuilds() {}
