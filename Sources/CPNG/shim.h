#ifndef OPENCAPTURE_CPNG_SHIM_H
#define OPENCAPTURE_CPNG_SHIM_H
#include <png.h>
#include <zlib.h>

// Compound format macros Swift cannot import, as plain constants.
static const png_uint_32 ocp_png_format_gray = PNG_FORMAT_GRAY;
static const png_uint_32 ocp_png_format_rgb = PNG_FORMAT_RGB;
static const png_uint_32 ocp_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 ocp_png_format_flag_alpha = PNG_FORMAT_FLAG_ALPHA;
static const png_uint_32 ocp_png_image_version = PNG_IMAGE_VERSION;

// The most bytes png_image_write_to_memory can need for `image` (a macro Swift cannot import).
static inline png_alloc_size_t ocp_png_image_png_size_max(const png_image *image) {
    return PNG_IMAGE_PNG_SIZE_MAX(*image);
}
#endif
