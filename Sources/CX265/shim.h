// x265 (Debian's libx265-dev) for OpenCapture's MediaFormats module: encodes one 8-bit 4:2:0
// picture as an intra-only HEVC still (the tiles and thumbnail of a HEIF file), or one 8-bit
// 4:0:0 (monochrome) picture (depth and matte auxiliary images), optionally lossless.
//
// x265_encoder_open is a macro that Swift cannot import, and opening/closing an encoder touches
// x265's process-wide state (CPU primitives), so the whole encode goes through ocx_encode below,
// which serialises open/close behind a mutex and lets the encodes themselves run concurrently.
#ifndef OPENCAPTURE_CX265_SHIM_H
#define OPENCAPTURE_CX265_SHIM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <x265.h>

/// One picture to encode: even width/height ≥ 16, 8-bit Y, Cb, Cr planes (chroma half size),
/// or with `monochrome` only the Y plane (planes[1], planes[2] unused).
typedef struct ocx_params {
    int width, height;
    const char *preset;          // x265 preset name ("ultrafast" … "veryslow")
    const char *tune;            // x265 tune name, or NULL
    double crf;                  // constant rate factor, 0…51
    int fast_decisions;          // rd 1 and no psy-rd on top of the preset
    int colour_primaries, transfer, matrix;  // VUI colour description (ISO/IEC 23091-2 codes)
    const uint8_t *planes[3];
    int strides[3];
    int monochrome;              // 4:0:0: coded as Main RExt (Main 4:0:0 constraints), like an iPhone's depth item
    int lossless;                // transquant bypass: the decoded samples equal the input (crf ignored)
} ocx_params;

/// The encoded picture: NAL units without start codes, each preceded by its 4-byte big-endian
/// length (the HEIF item format), parameter sets first. `data` is malloc'd; the caller frees it.
typedef struct ocx_result {
    uint8_t *data;
    size_t size, capacity;
    char message[160];
} ocx_result;

static pthread_mutex_t ocx_lifecycle_lock = PTHREAD_MUTEX_INITIALIZER;

static inline int ocx_append(ocx_result *r, const x265_nal *nals, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *p = nals[i].payload;
        uint32_t n = nals[i].sizeBytes;
        while (n > 0 && *p == 0) { p++; n--; }      // start code: zeros, then 1
        if (n == 0 || *p != 1) continue;
        p++; n--;
        if (r->size + n + 4 > r->capacity) {
            size_t cap = (r->capacity + n + 4) * 2;
            uint8_t *d = (uint8_t *)realloc(r->data, cap);
            if (!d) { strcpy(r->message, "out of memory"); return 1; }
            r->data = d; r->capacity = cap;
        }
        uint8_t *o = r->data + r->size;
        o[0] = (uint8_t)(n >> 24); o[1] = (uint8_t)(n >> 16); o[2] = (uint8_t)(n >> 8); o[3] = (uint8_t)n;
        memcpy(o + 4, p, n);
        r->size += n + 4;
    }
    return 0;
}

static inline int ocx_parse(x265_param *param, const char *name, const char *value, ocx_result *r) {
    if (x265_param_parse(param, name, value) == 0) return 0;
    snprintf(r->message, sizeof r->message, "x265 rejected %s=%s", name, value);
    return 1;
}

/// Encodes one picture. Returns 0 on success; otherwise r->message says why (r->data may be
/// non-NULL and must still be freed).
static inline int ocx_encode(const ocx_params *p, ocx_result *r) {
    memset(r, 0, sizeof *r);
    if (p->width < 16 || p->height < 16 || (p->width & 1) || (p->height & 1)) {
        snprintf(r->message, sizeof r->message, "x265 picture %dx%d is not even and at least 16x16", p->width, p->height);
        return 1;
    }
    x265_param *param = x265_param_alloc();
    if (!param) { strcpy(r->message, "out of memory"); return 1; }
    int status = 1;
    x265_encoder *encoder = NULL;
    x265_picture *picture = NULL;
    char number[32];

    if (x265_param_default_preset(param, p->preset, p->tune) < 0) {
        snprintf(r->message, sizeof r->message, "unknown x265 preset '%s' or tune '%s'", p->preset, p->tune ? p->tune : "");
        goto done;
    }
    param->logLevel = X265_LOG_NONE;
    param->internalCsp = p->monochrome ? X265_CSP_I400 : X265_CSP_I420;
    param->internalBitDepth = 8;
    param->sourceWidth = p->width;
    param->sourceHeight = p->height;
    param->fpsNum = 1;
    param->fpsDenom = 1;
    param->totalFrames = 1;
    int ctu = 64;
    while (ctu > 16 && (p->width < ctu || p->height < ctu)) ctu /= 2;
    snprintf(number, sizeof number, "%d", ctu);
    if (ocx_parse(param, "ctu", number, r)) goto done;
    if (ocx_parse(param, "info", "0", r)) goto done;             // no version SEI
    if (ocx_parse(param, "pools", "none", r)) goto done;         // one thread: callers run tiles in parallel
    if (ocx_parse(param, "frame-threads", "1", r)) goto done;
    if (ocx_parse(param, "repeat-headers", "0", r)) goto done;
    if (ocx_parse(param, "range", "full", r)) goto done;
    snprintf(number, sizeof number, "%d", p->colour_primaries);
    if (ocx_parse(param, "colorprim", number, r)) goto done;
    snprintf(number, sizeof number, "%d", p->transfer);
    if (ocx_parse(param, "transfer", number, r)) goto done;
    snprintf(number, sizeof number, "%d", p->matrix);
    if (ocx_parse(param, "colormatrix", number, r)) goto done;
    if (p->fast_decisions) {                                      // measured: ~15 % faster, same size and PSNR
        if (ocx_parse(param, "rd", "1", r)) goto done;
        if (ocx_parse(param, "psy-rd", "0", r)) goto done;
    }
    // Main Still Picture is 4:2:0 only; a 4:0:0 picture gets the RExt profile x265 derives itself
    // (one frame, no repeated headers, as set above).
    if (!p->monochrome && x265_param_apply_profile(param, "mainstillpicture") < 0) {
        strcpy(r->message, "x265 cannot apply the mainstillpicture profile");
        goto done;
    }
    if (p->monochrome) param->keyframeMax = 1;
    if (p->lossless && ocx_parse(param, "lossless", "1", r)) goto done;
    param->rc.rateControlMode = X265_RC_CRF;
    param->rc.rfConstant = p->crf;

    pthread_mutex_lock(&ocx_lifecycle_lock);
    encoder = x265_encoder_open(param);
    pthread_mutex_unlock(&ocx_lifecycle_lock);
    if (!encoder) { strcpy(r->message, "x265 could not open an encoder with these parameters"); goto done; }

    x265_nal *nals = NULL;
    uint32_t count = 0;
    if (x265_encoder_headers(encoder, &nals, &count) < 0) { strcpy(r->message, "x265 wrote no headers"); goto done; }
    if (ocx_append(r, nals, count)) goto done;

    picture = x265_picture_alloc();
    if (!picture) { strcpy(r->message, "out of memory"); goto done; }
    x265_picture_init(param, picture);
    for (int i = 0; i < (p->monochrome ? 1 : 3); i++) {
        picture->planes[i] = (void *)p->planes[i];
        picture->stride[i] = p->strides[i];
    }
    picture->bitDepth = 8;
    picture->colorSpace = p->monochrome ? X265_CSP_I400 : X265_CSP_I420;
    int ret = x265_encoder_encode(encoder, &nals, &count, picture, NULL);
    if (ret < 0) { strcpy(r->message, "x265 failed to encode the picture"); goto done; }
    if (ocx_append(r, nals, count)) goto done;
    while ((ret = x265_encoder_encode(encoder, &nals, &count, NULL, NULL)) > 0)
        if (ocx_append(r, nals, count)) goto done;
    if (ret < 0) { strcpy(r->message, "x265 failed to flush the picture"); goto done; }
    status = 0;

done:
    if (picture) x265_picture_free(picture);
    if (encoder) {
        pthread_mutex_lock(&ocx_lifecycle_lock);
        x265_encoder_close(encoder);
        pthread_mutex_unlock(&ocx_lifecycle_lock);
    }
    x265_param_free(param);
    return status;
}

#endif
