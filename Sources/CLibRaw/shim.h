#include <libraw/libraw.h>
#include <string.h>

/* The few fields of libraw_data_t that OpenCapture reads, copied into a small struct so Swift
   never touches the large (hundreds of KB) libraw_data_t by value. */
typedef struct {
    int raw_width, raw_height, width, height, top_margin, left_margin;
    unsigned raw_pitch;
    int flip;
    unsigned filters;
    int colors;
    char cdesc[5];
    unsigned dng_version;
    unsigned black;
    unsigned cblack[4];        /* per colour index */
    unsigned cblack_rows, cblack_cols;
    unsigned cblack_pattern[36]; /* cblack[6…], row-major, up to 6×6 */
    unsigned maximum;
    float cam_mul[4], pre_mul[4];
    float rgb_cam[3][4];
    float baseline_exposure;   /* DNG BaselineExposure, EV (0 for other raws) */
    float iso_speed, shutter, aperture, focal_len;
    long long timestamp;
    char make[64], model[64];
    const unsigned short *raw_image;
    /* A linear (demosaiced) DNG's unpacked samples, four per pixel (R, G, B, unused), raw_pitch bytes a row; NULL
       for a mosaic. */
    const unsigned short *color4_image;
} opencapture_libraw_info;

static inline void opencapture_libraw_get_info(const libraw_data_t *lr, opencapture_libraw_info *out) {
    memset(out, 0, sizeof *out);
    out->raw_width = lr->sizes.raw_width;
    out->raw_height = lr->sizes.raw_height;
    out->width = lr->sizes.width;
    out->height = lr->sizes.height;
    out->top_margin = lr->sizes.top_margin;
    out->left_margin = lr->sizes.left_margin;
    out->raw_pitch = lr->sizes.raw_pitch;
    out->flip = lr->sizes.flip;
    out->filters = lr->idata.filters;
    out->colors = lr->idata.colors;
    memcpy(out->cdesc, lr->idata.cdesc, sizeof out->cdesc);
    out->cdesc[4] = 0;
    out->dng_version = lr->idata.dng_version;
    out->black = lr->color.black;
    for (int i = 0; i < 4; i++) out->cblack[i] = lr->color.cblack[i];
    out->cblack_rows = lr->color.cblack[4];
    out->cblack_cols = lr->color.cblack[5];
    if (out->cblack_rows * out->cblack_cols > 36) out->cblack_rows = out->cblack_cols = 0;
    for (unsigned i = 0; i < out->cblack_rows * out->cblack_cols; i++) out->cblack_pattern[i] = lr->color.cblack[6 + i];
    out->maximum = lr->color.maximum;
    for (int i = 0; i < 4; i++) { out->cam_mul[i] = lr->color.cam_mul[i]; out->pre_mul[i] = lr->color.pre_mul[i]; }
    memcpy(out->rgb_cam, lr->color.rgb_cam, sizeof out->rgb_cam);
    out->baseline_exposure = lr->idata.dng_version ? lr->color.dng_levels.baseline_exposure : 0;
    out->iso_speed = lr->other.iso_speed;
    out->shutter = lr->other.shutter;
    out->aperture = lr->other.aperture;
    out->focal_len = lr->other.focal_len;
    out->timestamp = (long long)lr->other.timestamp;
    memcpy(out->make, lr->idata.make, sizeof out->make);
    out->make[63] = 0;
    memcpy(out->model, lr->idata.model, sizeof out->model);
    out->model[63] = 0;
    out->raw_image = lr->rawdata.raw_image;
    out->color4_image = lr->rawdata.color4_image ? lr->rawdata.color4_image[0] : NULL;
}

/* Counts data errors (truncated or corrupt streams) instead of printing them to stderr. */
static inline void opencapture_libraw_count_error(void *counter, const char *file, const int offset) {
    (void)file; (void)offset;
    if (counter) ++*(int *)counter;
}

static inline void opencapture_libraw_count_memory_error(void *counter, const char *file, const char *where) {
    (void)file; (void)where;
    if (counter) ++*(int *)counter;
}

static inline void opencapture_libraw_silence(libraw_data_t *lr, int *errorCounter) {
    libraw_set_dataerror_handler(lr, opencapture_libraw_count_error, errorCounter);
    libraw_set_memerror_handler(lr, opencapture_libraw_count_memory_error, errorCounter);
}
