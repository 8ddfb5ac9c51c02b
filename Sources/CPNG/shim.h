#ifndef OPENCAPTURE_CPNG_SHIM_H
#define OPENCAPTURE_CPNG_SHIM_H
#include <png.h>

// Compound format macros Swift cannot import, as plain constants.
static const png_uint_32 ocp_png_format_gray = PNG_FORMAT_GRAY;
static const png_uint_32 ocp_png_format_rgb = PNG_FORMAT_RGB;
static const png_uint_32 ocp_png_format_rgba = PNG_FORMAT_RGBA;
static const png_uint_32 ocp_png_format_flag_alpha = PNG_FORMAT_FLAG_ALPHA;
static const png_uint_32 ocp_png_image_version = PNG_IMAGE_VERSION;
#endif
