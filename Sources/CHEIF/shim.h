// libheif (Debian's libheif-dev) for OpenCapture's MediaFormats module: reading and decoding
// HEIF files. Writing is done by MediaFormats itself (grid and auxiliary items, which libheif
// 1.15 cannot write), with HEVC tiles from x265 (see CX265).
#ifndef OPENCAPTURE_CHEIF_SHIM_H
#define OPENCAPTURE_CHEIF_SHIM_H

#include <libheif/heif.h>

#endif
