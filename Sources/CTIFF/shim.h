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

/* More TIFFSetField shapes (libtiff's variadic API, per TIFF_SETGET_* kind). */
static inline int opencapture_tiff_set_ascii(TIFF *tif, ttag_t tag, const char *value) { return TIFFSetField(tif, tag, value); }
static inline int opencapture_tiff_set_double(TIFF *tif, ttag_t tag, double value) { return TIFFSetField(tif, tag, value); }
static inline int opencapture_tiff_set_u64(TIFF *tif, ttag_t tag, uint64_t value) { return TIFFSetField(tif, tag, value); }
/* Fixed-count arrays (TIFF_SETGET_C0_*): pointer only. */
static inline int opencapture_tiff_set_array(TIFF *tif, ttag_t tag, const void *values) { return TIFFSetField(tif, tag, values); }
/* Counted arrays (TIFF_SETGET_C16_*): uint16 count + pointer. Rational tags take floats. */
static inline int opencapture_tiff_set_counted(TIFF *tif, ttag_t tag, uint16_t count, const void *values) { return TIFFSetField(tif, tag, count, values); }

/* DNG 1.2+ tags libtiff 4.5.0 lacks (4.5.1 added them; merging skips tags libtiff already knows). */
static inline TIFFExtendProc *opencapture_dng_parent_extender(void) {
    static TIFFExtendProc parent = NULL;
    return &parent;
}

static inline void opencapture_dng_extender(TIFF *tif) {
    static const TIFFFieldInfo info[] = {
        { 50964, -1, -1, TIFF_SRATIONAL, FIELD_CUSTOM, 1, 1, (char *)"ForwardMatrix1" },
        { 50965, -1, -1, TIFF_SRATIONAL, FIELD_CUSTOM, 1, 1, (char *)"ForwardMatrix2" },
        { 50936, -1, -1, TIFF_ASCII, FIELD_CUSTOM, 1, 0, (char *)"ProfileName" },
        { 51041, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1, (char *)"NoiseProfile" },
        { 51009, -1, -1, TIFF_UNDEFINED, FIELD_CUSTOM, 1, 1, (char *)"OpcodeList2" },
        { 51022, -1, -1, TIFF_UNDEFINED, FIELD_CUSTOM, 1, 1, (char *)"OpcodeList3" },
        { 50970, 1, 1, TIFF_LONG, FIELD_CUSTOM, 1, 0, (char *)"PreviewColorSpace" },
    };
    for (unsigned i = 0; i < sizeof info / sizeof info[0]; i++) {
        if (TIFFFindField(tif, info[i].field_tag, TIFF_ANY) == NULL) TIFFMergeFieldInfo(tif, &info[i], 1);
    }
    TIFFExtendProc parent = *opencapture_dng_parent_extender();
    if (parent) parent(tif);
}

/* Installs the DNG tag extender; call once, before opening files (Swift does it from a lazy global). */
static inline void opencapture_dng_register_tags(void) {
    *opencapture_dng_parent_extender() = TIFFSetTagExtender(opencapture_dng_extender);
}

/* Counted-array TIFFGetField (TIFF_SETGET_C16_*): uint16 count + pointer owned by libtiff. */
static inline int opencapture_tiff_get_counted(TIFF *tif, ttag_t tag, uint16_t *count, const void **values) { return TIFFGetField(tif, tag, count, values); }

/* Starts writing a file range back to disk without waiting (Linux sync_file_range with SYNC_FILE_RANGE_WRITE, which
   Swift's Glibc module does not declare), so a flush at the end of a long write waits for less. */
#include <sys/syscall.h>
#include <unistd.h>
static inline int opencapture_start_writeback(int fd, long long offset, long long count) {
    return (int)syscall(SYS_sync_file_range, fd, offset, count, 2 /* SYNC_FILE_RANGE_WRITE */);
}
