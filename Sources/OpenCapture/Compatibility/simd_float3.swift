// Vector names from Apple's simd module (simd/vector_types.h). Swift on Linux has no `simd` module,
// but the standard library's `SIMD3<Float>` is exactly what these names denote on Apple platforms.

/// Three single-precision values (simd's `simd_float3`), the standard library's `SIMD3<Float>`.
public typealias simd_float3 = SIMD3<Float>
/// The older name of `simd_float3`.
public typealias vector_float3 = SIMD3<Float>
/// Four single-precision values (simd's `simd_float4`), the standard library's `SIMD4<Float>`.
public typealias simd_float4 = SIMD4<Float>
/// The older name of `simd_float4`.
public typealias vector_float4 = SIMD4<Float>
