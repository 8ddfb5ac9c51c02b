import Testing
@testable import ImagePipeline

@Test func ImagePipelineBuilds() {}
