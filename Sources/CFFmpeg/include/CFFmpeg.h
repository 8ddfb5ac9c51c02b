// FFmpeg (Debian's libavformat/libavcodec, with libx264 and libx265) for OpenCapture's MediaFormats
// module: writes a QuickTime movie from 8-bit 4:2:0 frames and 16-bit PCM audio, remuxes movies, and decodes one
// video frame of a movie (a thumbnail's).
//
// The libav API works through macros Swift cannot import (AVERROR, av_err2str) and many struct fields, so one
// small writer and reader live in ffmpeg.c behind this plain C interface. FFmpeg's libraries are loaded on first use
// (dlopen), not when a program starts: linked directly, their dependency chain (≈ 100 shared libraries) cost every
// OpenCapture process ≈ 80 ms of start-up, while only movies need them.
#ifndef OPENCAPTURE_CFFMPEG_H
#define OPENCAPTURE_CFFMPEG_H

#include <stdint.h>

/// A movie being written (opaque).
typedef struct ocav_writer ocav_writer;

/// Movie parameters. `codec` is an FFmpeg encoder name ("libx264", "libx265"); `timescale` is the
/// video track's (frame times are given in it); `audio_rate` 0 = no audio track.
typedef struct ocav_params {
    const char *path;
    const char *codec;
    const char *preset;
    int width, height;
    int timescale;
    int frame_rate;            // nominal, for the encoder's rate control and GOP
    int crf;
    int threads;
    int audio_rate, audio_channels, audio_bitrate;
    int colour_primaries, transfer, matrix;  // ISO/IEC 23091-2 codes
    int full_range;                          // 1: full-range samples (JPEG levels), 0: video range
    int rotation;                            // clockwise degrees a player turns the frames (0, 90, 180, 270)
    const char *const *metadata_keys;        // movie-level metadata (mdta keys with use_metadata_tags)
    const char *const *metadata_values;
    int metadata_count;
    const char *creation_time;               // ISO 8601 UTC ("2026-03-01T08:30:00.000000Z") for mvhd/tkhd/mdhd, or NULL
} ocav_params;

/// Loads FFmpeg, opens the movie file and writes its header. NULL on failure, with the reason in `error`
/// (including FFmpeg's libraries not being installed).
ocav_writer *ocav_open(const ocav_params *p, char *error, int size);

// The functions below take a writer `ocav_open` returned (never NULL).

/// Appends one frame (8-bit 4:2:0 with interleaved chroma, i.e. NV12) presented at `pts` (video timescale).
int ocav_write_nv12(ocav_writer *w, const uint8_t *y, int y_stride, const uint8_t *uv, int uv_stride,
                    int64_t pts, char *error, int size);

/// Appends interleaved signed 16-bit samples (`frames` per channel).
int ocav_write_pcm16(ocav_writer *w, const int16_t *samples, int frames, char *error, int size);

/// Flushes the encoders, writes the trailer and closes the file; frees the writer either way. The last frame lasts a
/// frame interval, or with `video_end` > 0 (in the movie's timescale) until `video_end`, sooner or later.
int ocav_finish(ocav_writer *w, int64_t video_end, char *error, int size);

/// Frees the writer without finishing the file (the caller deletes it).
void ocav_abort(ocav_writer *w);

/// Copies the audio and video streams of the QuickTime/MP4 movie at `in_path` (a plain file: no other container or
/// protocol is opened) into a new `format` file ("mp4", "mov") at
/// `out_path` without re-encoding (other streams, such as timed metadata, are left out). Returns 0 on success.
int ocav_remux(const char *in_path, const char *out_path, const char *format, char *error, int size);

/// One decoded video frame (opaque); its planes stay valid until `ocav_frame_free`.
typedef struct ocav_frame ocav_frame;

/// What a decoded frame holds. Samples are planar Y′CbCr (`planes` 3), Y′ with interleaved CbCr (NV12, `planes` 2)
/// or Y′ alone (`planes` 1); with `bit_depth` above 8 each sample is a little-endian 16-bit word. Chroma planes are
/// subsampled by 2^`chroma_shift_x` across and 2^`chroma_shift_y` down.
typedef struct ocav_frame_info {
    int width, height;                       // the coded picture, as stored (before the display matrix)
    int bit_depth;
    int planes;
    int chroma_shift_x, chroma_shift_y;
    const uint8_t *data[3];
    int linesize[3];                         // bytes from one row to the next
    int full_range;                          // 1: full-range samples (JPEG levels), 0: video range
    int matrix;                              // ISO/IEC 23091-2 matrix coefficients (1 BT.709, 5/6 BT.601, 9 BT.2020, 2 unknown)
    int has_display_matrix;
    int32_t display_matrix[9];               // the track's, as stored (a, b, u, c, d, v, x, y, w; 16.16 and 2.30 fixed point)
    double time;                             // when the frame is shown, seconds from the movie's start
    int rgb;                                 // 1: R′G′B′ samples, no matrix (planar: planes G, B, R)
    int packed_bytes;                        // packed 8-bit RGB: bytes per pixel in plane 0 (0: planar)
    int packed_offsets[3];                   // packed: where R, G and B sit in a pixel's bytes
} ocav_frame_info;

/// Decodes the frame the first video stream of the QuickTime/MP4 movie at `path` shows at `seconds` (the first frame for
/// 0 or less; the last one for a time past the end). Only a plain file in that container is opened: a playlist or an
/// image named .mov is not a movie. NULL on failure, with the reason in `error` (FFmpeg missing, not a movie,
/// no video stream, undecodable data, a sample format other than 8- to 12-bit Y′CbCr, grey or RGB).
ocav_frame *ocav_decode_frame(const char *path, double seconds, ocav_frame_info *info, char *error, int size);

/// Frees a frame `ocav_decode_frame` returned.
void ocav_frame_free(ocav_frame *frame);

#endif
