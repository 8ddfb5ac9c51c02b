#include <tiffio.h>

/* Silences libtiff's default handlers (which print to stderr); errors surface as return codes. */
static inline void opencapture_tiff_silence(void) {
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
}

/* Variadic TIFFSetField wrappers Swift can call. */
static inline int opencapture_tiff_set_u32(TIFF *tif, ttag_t tag, uint32_t value) { return TIFFSetField(tif, tag, value); }
static inline int opencapture_tiff_set_u16(TIFF *tif, ttag_t tag, uint16_t value) { return TIFFSetField(tif, tag, value); }
static inline int opencapture_tiff_get_u16(TIFF *tif, ttag_t tag, uint16_t *value) { return TIFFGetFieldDefaulted(tif, tag, value); }
static inline int opencapture_tiff_get_u32(TIFF *tif, ttag_t tag, uint32_t *value) { return TIFFGetField(tif, tag, value); }
