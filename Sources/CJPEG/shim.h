// Header-only C shim around libjpeg-turbo for OpenCapture's MediaFormats module.
//
// libjpeg reports fatal errors by calling err->error_exit, whose default implementation
// calls exit(). Swift cannot use setjmp/longjmp, so every call that may fail goes through a
// `static inline` wrapper below that arms a setjmp guard first; our error_exit formats the
// message and longjmps back to that wrapper, which returns nonzero. Swift never calls into
// libjpeg directly for anything that can fail.
#ifndef OPENCAPTURE_CJPEG_SHIM_H
#define OPENCAPTURE_CJPEG_SHIM_H

#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <jerror.h>

/// Error manager: libjpeg's public part first, then our jump target and captured message.
typedef struct ocj_error_mgr {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int first_warning_code;   // msg_code of the first data-corruption warning (-1 if none)
    char warning[JMSG_LENGTH_MAX];
    int corrupt_warnings;     // warnings that mean the pixels are wrong (see ocj_is_corruption)
} ocj_error_mgr;

static inline void ocj_error_exit(j_common_ptr cinfo) {
    ocj_error_mgr *err = (ocj_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

/// Warnings after which libjpeg has substituted grey or garbage for real image data. Benign
/// ones (extraneous bytes between markers, odd JFIF versions, Adobe transforms) are tolerated.
static inline int ocj_is_corruption(int code) {
    return code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER || code == JWRN_HUFF_BAD_CODE ||
           code == JWRN_MUST_RESYNC || code == JWRN_ARITH_BAD_CODE || code == JWRN_BOGUS_PROGRESSION ||
           code == JWRN_NOT_SEQUENTIAL;
}

static inline void ocj_emit_message(j_common_ptr cinfo, int level) {
    ocj_error_mgr *err = (ocj_error_mgr *)cinfo->err;
    if (level < 0) {  // warning: record the first corrupt-data one, never print
        if (!ocj_is_corruption(cinfo->err->msg_code)) { cinfo->err->num_warnings++; return; }
        err->corrupt_warnings++;
        if (err->first_warning_code < 0) {
            err->first_warning_code = cinfo->err->msg_code;
            (*cinfo->err->format_message)(cinfo, err->warning);
        }
        cinfo->err->num_warnings++;
    }
}

static inline void ocj_output_message(j_common_ptr cinfo) { (void)cinfo; }

static inline void ocj_error_init(ocj_error_mgr *err) {
    memset(err, 0, sizeof(*err));
    jpeg_std_error(&err->pub);
    err->pub.error_exit = ocj_error_exit;
    err->pub.emit_message = ocj_emit_message;
    err->pub.output_message = ocj_output_message;
    err->first_warning_code = -1;
}

static inline int ocj_is_truncation_warning(int code) { return code == JWRN_JPEG_EOF; }

// MARK: - Decoding

typedef struct ocj_decoder {
    struct jpeg_decompress_struct cinfo;
    ocj_error_mgr err;
    int created;
} ocj_decoder;

/// Creates the decompressor and reads the header of `data`. Returns 0 on success.
/// The caller owns `dec` (zeroed memory) and must call ocj_decoder_destroy in every case.
static inline int ocj_decoder_open(ocj_decoder *dec, const unsigned char *data, unsigned long size) {
    ocj_error_init(&dec->err);
    dec->cinfo.err = &dec->err.pub;
    if (setjmp(dec->err.jump)) return 1;
    jpeg_create_decompress(&dec->cinfo);
    dec->created = 1;
    jpeg_mem_src(&dec->cinfo, data, size);
    if (jpeg_read_header(&dec->cinfo, TRUE) != JPEG_HEADER_OK) {
        strcpy(dec->err.message, "no image in JPEG data");
        return 1;
    }
    return 0;
}

/// Starts decompression to interleaved 8-bit RGB. Returns 0 on success.
static inline int ocj_decoder_start_rgb(ocj_decoder *dec) {
    if (setjmp(dec->err.jump)) return 1;
    dec->cinfo.out_color_space = JCS_EXT_RGB;
    jpeg_start_decompress(&dec->cinfo);
    return 0;
}

/// Starts decompression of a CMYK or YCCK JPEG to interleaved 8-bit CMYK (libjpeg turns YCCK into CMYK; the values
/// come as stored: Adobe's files, those with an APP14 marker, store them inverted). Returns 0 on success.
static inline int ocj_decoder_start_cmyk(ocj_decoder *dec) {
    if (setjmp(dec->err.jump)) return 1;
    dec->cinfo.out_color_space = JCS_CMYK;
    jpeg_start_decompress(&dec->cinfo);
    return 0;
}

/// Reads all scanlines into `pixels` (output_height rows of `stride` bytes) and finishes.
static inline int ocj_decoder_read_all(ocj_decoder *dec, unsigned char *pixels, size_t stride) {
    if (setjmp(dec->err.jump)) return 1;
    while (dec->cinfo.output_scanline < dec->cinfo.output_height) {
        JSAMPROW rows[8];
        JDIMENSION n = dec->cinfo.output_height - dec->cinfo.output_scanline;
        if (n > 8) n = 8;
        for (JDIMENSION i = 0; i < n; i++)
            rows[i] = pixels + (size_t)(dec->cinfo.output_scanline + i) * stride;
        if (jpeg_read_scanlines(&dec->cinfo, rows, n) == 0) {
            strcpy(dec->err.message, "JPEG data ended early");
            return 1;
        }
    }
    jpeg_finish_decompress(&dec->cinfo);
    return 0;
}

static inline void ocj_decoder_destroy(ocj_decoder *dec) {
    if (dec->created) jpeg_destroy_decompress(&dec->cinfo);
    dec->created = 0;
}

// MARK: - Encoding

/// A growable in-memory destination whose buffer we own (unlike jpeg_mem_dest, whose buffer
/// is unrecoverable after an error longjmp).
typedef struct ocj_mem_dest {
    struct jpeg_destination_mgr pub;
    unsigned char *buffer;
    size_t capacity;
    size_t size;   // valid after term_destination
} ocj_mem_dest;

static inline void ocj_dest_init(j_compress_ptr cinfo) {
    ocj_mem_dest *d = (ocj_mem_dest *)cinfo->dest;
    d->pub.next_output_byte = d->buffer;
    d->pub.free_in_buffer = d->capacity;
}

static inline boolean ocj_dest_empty(j_compress_ptr cinfo) {
    ocj_mem_dest *d = (ocj_mem_dest *)cinfo->dest;
    size_t newCap = d->capacity * 2;
    unsigned char *nb = (unsigned char *)realloc(d->buffer, newCap);
    if (!nb) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    d->pub.next_output_byte = nb + d->capacity;   // libjpeg expects the whole buffer flushed
    d->pub.free_in_buffer = newCap - d->capacity;
    d->buffer = nb;
    d->capacity = newCap;
    return TRUE;
}

static inline void ocj_dest_term(j_compress_ptr cinfo) {
    ocj_mem_dest *d = (ocj_mem_dest *)cinfo->dest;
    d->size = d->capacity - d->pub.free_in_buffer;
}

typedef struct ocj_encoder {
    struct jpeg_compress_struct cinfo;
    ocj_error_mgr err;
    ocj_mem_dest dest;
    int created;
} ocj_encoder;

/// Encoding parameters. `channels` 1 (gray), 3 (RGB) or 4 (RGBX, 4th byte ignored).
/// `subsampling`: 0 = 4:4:4, 1 = 4:2:2, 2 = 4:2:0.
typedef struct ocj_encode_params {
    int width, height, channels;
    size_t stride;
    int quality;
    int subsampling;
    int optimize_coding;
    int write_jfif;
    int restart_in_rows;   // a restart marker after every this many MCU rows (0: none)
    const unsigned char *app1; unsigned int app1_length;   // APP1 payload or NULL
    const unsigned char *icc;  unsigned int icc_length;    // ICC profile or NULL
    int cmyk;              // 0: as `channels` says; 1: 4-channel CMYK coded as CMYK; 2: coded as YCCK (tests' files)
    int adobe_marker;      // with `cmyk`: write Adobe's APP14 marker (whose readers take the values as inverted)
} ocj_encode_params;

/// Encodes `pixels` into dec->dest.buffer (malloc'd; take ownership or free with
/// ocj_encoder_destroy). Returns 0 on success; the message is in enc->err.message otherwise.
static inline int ocj_encode(ocj_encoder *enc, const unsigned char *pixels, const ocj_encode_params *p) {
    ocj_error_init(&enc->err);
    enc->cinfo.err = &enc->err.pub;
    if (setjmp(enc->err.jump)) return 1;
    jpeg_create_compress(&enc->cinfo);
    enc->created = 1;

    size_t estimate = (size_t)p->width * (size_t)p->height / 2 + 65536 + p->app1_length + p->icc_length;
    enc->dest.buffer = (unsigned char *)malloc(estimate);
    if (!enc->dest.buffer) { strcpy(enc->err.message, "out of memory"); return 1; }
    enc->dest.capacity = estimate;
    enc->dest.pub.init_destination = ocj_dest_init;
    enc->dest.pub.empty_output_buffer = ocj_dest_empty;
    enc->dest.pub.term_destination = ocj_dest_term;
    enc->cinfo.dest = &enc->dest.pub;

    enc->cinfo.image_width = (JDIMENSION)p->width;
    enc->cinfo.image_height = (JDIMENSION)p->height;
    enc->cinfo.input_components = p->channels;
    enc->cinfo.in_color_space = p->channels == 1 ? JCS_GRAYSCALE : (p->channels == 4 ? JCS_EXT_RGBX : JCS_EXT_RGB);
    jpeg_set_defaults(&enc->cinfo);
    jpeg_set_quality(&enc->cinfo, p->quality, TRUE);
    enc->cinfo.optimize_coding = p->optimize_coding ? TRUE : FALSE;
    enc->cinfo.write_JFIF_header = p->write_jfif ? TRUE : FALSE;
    enc->cinfo.restart_in_rows = p->restart_in_rows;
    if (p->cmyk) {
        enc->cinfo.in_color_space = JCS_CMYK;
        enc->cinfo.input_components = 4;
        jpeg_set_colorspace(&enc->cinfo, p->cmyk == 2 ? JCS_YCCK : JCS_CMYK);
        enc->cinfo.write_Adobe_marker = p->adobe_marker ? TRUE : FALSE;
    } else if (p->channels != 1) {
        int h = p->subsampling == 0 ? 1 : 2;
        int v = p->subsampling == 2 ? 2 : 1;
        enc->cinfo.comp_info[0].h_samp_factor = h;
        enc->cinfo.comp_info[0].v_samp_factor = v;
        enc->cinfo.comp_info[1].h_samp_factor = 1;
        enc->cinfo.comp_info[1].v_samp_factor = 1;
        enc->cinfo.comp_info[2].h_samp_factor = 1;
        enc->cinfo.comp_info[2].v_samp_factor = 1;
    }
    jpeg_start_compress(&enc->cinfo, TRUE);
    if (p->app1 && p->app1_length > 0)
        jpeg_write_marker(&enc->cinfo, JPEG_APP0 + 1, p->app1, p->app1_length);
    if (p->icc && p->icc_length > 0)
        jpeg_write_icc_profile(&enc->cinfo, p->icc, p->icc_length);
    while (enc->cinfo.next_scanline < enc->cinfo.image_height) {
        JSAMPROW rows[16];
        JDIMENSION n = enc->cinfo.image_height - enc->cinfo.next_scanline;
        if (n > 16) n = 16;
        for (JDIMENSION i = 0; i < n; i++)
            rows[i] = (JSAMPROW)(pixels + (size_t)(enc->cinfo.next_scanline + i) * p->stride);
        jpeg_write_scanlines(&enc->cinfo, rows, n);
    }
    jpeg_finish_compress(&enc->cinfo);
    return 0;
}

/// Hands the encoded buffer to the caller (who must free() it) and clears it here.
static inline unsigned char *ocj_encoder_take_buffer(ocj_encoder *enc, size_t *size) {
    unsigned char *b = enc->dest.buffer;
    *size = enc->dest.size;
    enc->dest.buffer = NULL;
    return b;
}

static inline void ocj_encoder_destroy(ocj_encoder *enc) {
    if (enc->created) jpeg_destroy_compress(&enc->cinfo);
    enc->created = 0;
    free(enc->dest.buffer);
    enc->dest.buffer = NULL;
}

#endif
