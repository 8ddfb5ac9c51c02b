// OpenCapture's movie writer, remuxer and frame decoder on FFmpeg, which is loaded on first use; see CFFmpeg.h.
#include "CFFmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <libavformat/avformat.h>
#include <libavformat/version.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/version.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <libavutil/version.h>

struct ocav_writer {
    AVFormatContext *format;
    AVCodecContext *video, *audio;
    AVStream *video_stream, *audio_stream;
    AVFrame *video_frame, *audio_frame;
    AVPacket *packet;
    AVPacket *held;            // the newest video packet, written when the next one comes or by ocav_finish
    int has_held;
    int audio_fill;            // samples already in audio_frame
    int64_t audio_next_pts;    // in samples
    int header_written;
};

// Every FFmpeg function used, and the library that exports it.
#define OCAV_FUNCTIONS(X) \
    X(format, avio_closep) \
    X(format, avformat_new_stream) \
    X(util, av_opt_set) \
    X(format, avio_open) \
    X(format, avformat_write_header) \
    X(format, avformat_free_context) \
    X(format, avformat_alloc_output_context2) \
    X(codec, avcodec_parameters_from_context) \
    X(codec, avcodec_open2) \
    X(codec, avcodec_free_context) \
    X(codec, avcodec_alloc_context3) \
    X(format, av_write_trailer) \
    X(codec, av_packet_rescale_ts) \
    X(codec, av_packet_free) \
    X(codec, av_packet_alloc) \
    X(format, av_interleaved_write_frame) \
    X(util, av_free) \
    X(util, av_frame_make_writable) \
    X(util, av_frame_get_buffer) \
    X(util, av_frame_free) \
    X(util, av_frame_alloc) \
    X(util, av_dict_set) \
    X(format, avformat_open_input) \
    X(format, avformat_find_stream_info) \
    X(format, avformat_close_input) \
    X(codec, avcodec_send_frame) \
    X(codec, avcodec_receive_packet) \
    X(codec, avcodec_parameters_copy) \
    X(codec, avcodec_find_encoder_by_name) \
    X(codec, avcodec_find_encoder) \
    X(util, av_strerror) \
    X(format, av_stream_new_side_data) \
    X(format, av_stream_get_side_data) \
    X(util, av_dict_get) \
    X(format, av_read_frame) \
    X(codec, av_packet_unref) \
    X(util, av_mallocz) \
    X(util, av_log_set_level) \
    X(util, av_display_rotation_set) \
    X(util, av_dict_free) \
    X(util, av_channel_layout_default) \
    X(util, av_channel_layout_copy) \
    X(util, av_calloc) \
    X(format, av_find_best_stream) \
    X(format, avformat_seek_file) \
    X(codec, avcodec_parameters_to_context) \
    X(codec, avcodec_send_packet) \
    X(codec, avcodec_receive_frame) \
    X(util, av_frame_unref) \
    X(util, av_frame_move_ref) \
    X(util, av_get_pix_fmt_name)

// The functions, resolved from the libraries this file was compiled against (their major versions name them).
static struct {
#define OCAV_POINTER(library, name) __typeof__(name) *name;
    OCAV_FUNCTIONS(OCAV_POINTER)
#undef OCAV_POINTER
} ff;

static pthread_once_t ocav_once = PTHREAD_ONCE_INIT;
static int ocav_loaded;
static char ocav_load_error[512];

static void ocav_load_once(void) {
    static const char *const names[3] = {
        "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
        "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
        "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    };
    void *handles[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) {
        handles[i] = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) {
            const char *why = dlerror();   // names the library itself
            snprintf(ocav_load_error, sizeof ocav_load_error, "FFmpeg is not available (%s)", why ? why : names[i]);
            goto fail;
        }
    }
    void *util = handles[0], *codec = handles[1], *format = handles[2];
#define OCAV_RESOLVE(library, name) \
    if (!(ff.name = (__typeof__(ff.name))dlsym(library, #name))) { \
        snprintf(ocav_load_error, sizeof ocav_load_error, "FFmpeg is not usable: libav" #library " has no " #name); \
        goto fail; \
    }
    OCAV_FUNCTIONS(OCAV_RESOLVE)
#undef OCAV_RESOLVE
    ocav_loaded = 1;
    return;
fail:
    for (int i = 0; i < 3; i++) if (handles[i]) dlclose(handles[i]);
}

/// Loads FFmpeg once per process; 0 with the reason in `error` when it cannot.
static int ocav_load(char *error, int size) {
    pthread_once(&ocav_once, ocav_load_once);
    if (!ocav_loaded) snprintf(error, (size_t)size, "%s", ocav_load_error);
    return ocav_loaded;
}


static void ocav_message(int code, const char *what, char *error, int size) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    ff.av_strerror(code, text, sizeof text);
    snprintf(error, (size_t)size, "%s: %s", what, text);
}

static void ocav_free(ocav_writer *w) {
    if (!w) return;
    if (w->video) ff.avcodec_free_context(&w->video);
    if (w->audio) ff.avcodec_free_context(&w->audio);
    if (w->video_frame) ff.av_frame_free(&w->video_frame);
    if (w->audio_frame) ff.av_frame_free(&w->audio_frame);
    if (w->packet) ff.av_packet_free(&w->packet);
    if (w->held) ff.av_packet_free(&w->held);
    if (w->format) {
        if (w->format->pb) ff.avio_closep(&w->format->pb);
        ff.avformat_free_context(w->format);
    }
    ff.av_free(w);
}

/// Writes `packet` (in `codec`'s time base) to `stream`; the muxer takes its contents.
static int ocav_write_packet(ocav_writer *w, AVCodecContext *codec, AVStream *stream, AVPacket *packet, char *error, int size) {
    ff.av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
    packet->stream_index = stream->index;
    int ret = ff.av_interleaved_write_frame(w->format, packet);
    if (ret < 0) ocav_message(ret, "writing the movie failed", error, size);
    return ret;
}

/// Sends a frame (or NULL to flush) and writes every packet the encoder returns, except the newest video packet: it
/// waits in `held` for the next one or for ocav_finish, which sets where the movie's last frame ends.
static int ocav_drain(ocav_writer *w, AVCodecContext *codec, AVStream *stream, AVFrame *frame, char *error, int size) {
    int ret = ff.avcodec_send_frame(codec, frame);
    if (ret < 0) { ocav_message(ret, "encoder refused a frame", error, size); return ret; }
    for (;;) {
        ret = ff.avcodec_receive_packet(codec, w->packet);
        if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return 0;
        if (ret < 0) { ocav_message(ret, "encoding failed", error, size); return ret; }
        // Video encoders leave a packet's duration 0 here; the muxer then gives the last frame none and the movie
        // ends a frame early. Each frame lasts one frame interval.
        if (w->packet->duration == 0 && codec->codec_type == AVMEDIA_TYPE_VIDEO && codec->framerate.num > 0 && codec->time_base.num > 0)
            w->packet->duration = (int64_t)codec->time_base.den * codec->framerate.den
                                / ((int64_t)codec->time_base.num * codec->framerate.num);
        if (codec->codec_type == AVMEDIA_TYPE_VIDEO) {
            // Only the file's last sample takes its length from its packet (the others last until the next one), and
            // which packet is last is known only at the end: keep the newest, write the one it replaces.
            AVPacket *newest = w->packet;
            w->packet = w->held;
            w->held = newest;
            int had = w->has_held;
            w->has_held = 1;
            if (!had) continue;
        }
        if ((ret = ocav_write_packet(w, codec, stream, w->packet, error, size)) < 0) return ret;
    }
}

ocav_writer *ocav_open(const ocav_params *p, char *error, int size) {
    int ret;
    if (!ocav_load(error, size)) return NULL;
    ocav_writer *w = (ocav_writer *)ff.av_mallocz(sizeof(ocav_writer));
    if (!w) { snprintf(error, (size_t)size, "out of memory"); return NULL; }
    ff.av_log_set_level(AV_LOG_ERROR);
    if ((ret = ff.avformat_alloc_output_context2(&w->format, NULL, "mov", p->path)) < 0) {
        ocav_message(ret, "no QuickTime muxer", error, size); goto fail;
    }
    const AVCodec *vc = ff.avcodec_find_encoder_by_name(p->codec);
    if (!vc) { snprintf(error, (size_t)size, "FFmpeg has no %s encoder", p->codec); goto fail; }
    w->video_stream = ff.avformat_new_stream(w->format, NULL);
    w->video = ff.avcodec_alloc_context3(vc);
    w->packet = ff.av_packet_alloc();
    w->held = ff.av_packet_alloc();
    w->video_frame = ff.av_frame_alloc();
    if (!w->video_stream || !w->video || !w->packet || !w->held || !w->video_frame) { snprintf(error, (size_t)size, "out of memory"); goto fail; }
    w->video->width = p->width;
    w->video->height = p->height;
    w->video->pix_fmt = AV_PIX_FMT_YUV420P;
    w->video->color_range = p->full_range ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
    w->video->color_primaries = (enum AVColorPrimaries)p->colour_primaries;
    w->video->color_trc = (enum AVColorTransferCharacteristic)p->transfer;
    w->video->colorspace = (enum AVColorSpace)p->matrix;
    w->video->time_base = (AVRational){1, p->timescale};
    w->video->framerate = (AVRational){p->frame_rate, 1};
    w->video->gop_size = p->frame_rate;
    w->video->max_b_frames = 0;
    w->video->thread_count = p->threads;
    if (w->format->oformat->flags & AVFMT_GLOBALHEADER) w->video->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    ff.av_opt_set(w->video->priv_data, "preset", p->preset, 0);
    char crf[16]; snprintf(crf, sizeof crf, "%d", p->crf);
    ff.av_opt_set(w->video->priv_data, "crf", crf, 0);
    if (strcmp(p->codec, "libx265") == 0) ff.av_opt_set(w->video->priv_data, "x265-params", "log-level=none", 0);
    if ((ret = ff.avcodec_open2(w->video, vc, NULL)) < 0) { ocav_message(ret, "cannot open the video encoder", error, size); goto fail; }
    ff.avcodec_parameters_from_context(w->video_stream->codecpar, w->video);
    w->video_stream->time_base = (AVRational){1, p->timescale};
    if (strcmp(p->codec, "libx265") == 0) w->video_stream->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');
    if (p->rotation % 360 != 0) {
        // The track's display matrix (tkhd), as an iPhone marks a portrait movie (ffprobe: rotation of -90 degrees).
        uint8_t *matrix = ff.av_stream_new_side_data(w->video_stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
        if (matrix) ff.av_display_rotation_set((int32_t *)matrix, (double)p->rotation);
    }
    w->video_frame->format = AV_PIX_FMT_YUV420P;
    w->video_frame->width = p->width;
    w->video_frame->height = p->height;
    if ((ret = ff.av_frame_get_buffer(w->video_frame, 0)) < 0) { ocav_message(ret, "no frame buffer", error, size); goto fail; }

    if (p->audio_rate > 0) {
        const AVCodec *ac = ff.avcodec_find_encoder(AV_CODEC_ID_AAC);
        if (!ac) { snprintf(error, (size_t)size, "FFmpeg has no AAC encoder"); goto fail; }
        w->audio_stream = ff.avformat_new_stream(w->format, NULL);
        w->audio = ff.avcodec_alloc_context3(ac);
        w->audio_frame = ff.av_frame_alloc();
        if (!w->audio_stream || !w->audio || !w->audio_frame) { snprintf(error, (size_t)size, "out of memory"); goto fail; }
        w->audio->sample_fmt = AV_SAMPLE_FMT_FLTP;
        w->audio->sample_rate = p->audio_rate;
        ff.av_channel_layout_default(&w->audio->ch_layout, p->audio_channels);
        w->audio->bit_rate = p->audio_bitrate;
        w->audio->time_base = (AVRational){1, p->audio_rate};
        if (w->format->oformat->flags & AVFMT_GLOBALHEADER) w->audio->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        if ((ret = ff.avcodec_open2(w->audio, ac, NULL)) < 0) { ocav_message(ret, "cannot open the AAC encoder", error, size); goto fail; }
        ff.avcodec_parameters_from_context(w->audio_stream->codecpar, w->audio);
        w->audio_stream->time_base = (AVRational){1, p->audio_rate};
        w->audio_frame->format = AV_SAMPLE_FMT_FLTP;
        w->audio_frame->nb_samples = w->audio->frame_size;
        w->audio_frame->sample_rate = p->audio_rate;
        ff.av_channel_layout_copy(&w->audio_frame->ch_layout, &w->audio->ch_layout);
        if ((ret = ff.av_frame_get_buffer(w->audio_frame, 0)) < 0) { ocav_message(ret, "no audio buffer", error, size); goto fail; }
    }
    for (int i = 0; i < p->metadata_count; i++) ff.av_dict_set(&w->format->metadata, p->metadata_keys[i], p->metadata_values[i], 0);
    if ((ret = ff.avio_open(&w->format->pb, p->path, AVIO_FLAG_WRITE)) < 0) { ocav_message(ret, "cannot create the movie file", error, size); goto fail; }
    AVDictionary *options = NULL;
    if (p->metadata_count > 0) ff.av_dict_set(&options, "movflags", "use_metadata_tags", 0);
    // The muxer takes the movie's creation time (mvhd, tkhd, mdhd) from this key when it writes the header, and
    // writes every key left at the end as an mdta key: it goes before then.
    if (p->creation_time) ff.av_dict_set(&w->format->metadata, "creation_time", p->creation_time, 0);
    ret = ff.avformat_write_header(w->format, &options);
    ff.av_dict_free(&options);
    if (p->creation_time) ff.av_dict_set(&w->format->metadata, "creation_time", NULL, 0);
    if (ret < 0) { ocav_message(ret, "cannot write the movie header", error, size); goto fail; }
    w->header_written = 1;
    return w;
fail:
    ocav_free(w);
    return NULL;
}

/// Appends one frame (8-bit 4:2:0 with interleaved chroma, i.e. NV12) presented at `pts` (video timescale).
int ocav_write_nv12(ocav_writer *w, const uint8_t *y, int y_stride, const uint8_t *uv, int uv_stride,
                                  int64_t pts, char *error, int size) {
    int ret = ff.av_frame_make_writable(w->video_frame);
    if (ret < 0) { ocav_message(ret, "frame not writable", error, size); return ret; }
    AVFrame *f = w->video_frame;
    for (int row = 0; row < f->height; row++) memcpy(f->data[0] + row * f->linesize[0], y + row * y_stride, (size_t)f->width);
    for (int row = 0; row < f->height / 2; row++) {
        const uint8_t *s = uv + row * uv_stride;
        uint8_t *cb = f->data[1] + row * f->linesize[1], *cr = f->data[2] + row * f->linesize[2];
        for (int x = 0; x < f->width / 2; x++) { cb[x] = s[2 * x]; cr[x] = s[2 * x + 1]; }
    }
    f->pts = pts;
    return ocav_drain(w, w->video, w->video_stream, f, error, size);
}

/// Appends interleaved signed 16-bit samples (`frames` per channel).
int ocav_write_pcm16(ocav_writer *w, const int16_t *samples, int frames, char *error, int size) {
    if (!w->audio) return 0;
    int channels = w->audio->ch_layout.nb_channels;
    for (int i = 0; i < frames; i++) {
        if (w->audio_fill == 0) {
            int ret = ff.av_frame_make_writable(w->audio_frame);
            if (ret < 0) { ocav_message(ret, "audio frame not writable", error, size); return ret; }
        }
        for (int c = 0; c < channels; c++)
            ((float *)w->audio_frame->data[c])[w->audio_fill] = samples[i * channels + c] / 32768.0f;
        if (++w->audio_fill == w->audio_frame->nb_samples) {
            w->audio_frame->pts = w->audio_next_pts;
            w->audio_next_pts += w->audio_fill;
            w->audio_fill = 0;
            int ret = ocav_drain(w, w->audio, w->audio_stream, w->audio_frame, error, size);
            if (ret < 0) return ret;
        }
    }
    return 0;
}

/// Flushes the encoders, writes the trailer and closes the file; frees the writer either way.
int ocav_finish(ocav_writer *w, int64_t video_end, char *error, int size) {
    int ret = 0;
    if (w->audio && w->audio_fill > 0) {
        w->audio_frame->nb_samples = w->audio_fill;
        w->audio_frame->pts = w->audio_next_pts;
        w->audio_next_pts += w->audio_fill;
        w->audio_fill = 0;
        ret = ocav_drain(w, w->audio, w->audio_stream, w->audio_frame, error, size);
    }
    if (ret >= 0) ret = ocav_drain(w, w->video, w->video_stream, NULL, error, size);
    if (ret >= 0 && w->has_held) {
        // The last frame lasts until `video_end` when given: cut at a maximum duration inside its interval, or held
        // to one the recording reached after frames it could not take (as a gap between frames holds the one before).
        if (video_end > w->held->pts) w->held->duration = video_end - w->held->pts;
        w->has_held = 0;
        ret = ocav_write_packet(w, w->video, w->video_stream, w->held, error, size);
    }
    if (ret >= 0 && w->audio) ret = ocav_drain(w, w->audio, w->audio_stream, NULL, error, size);
    if (ret >= 0) {
        ret = ff.av_write_trailer(w->format);
        if (ret < 0) ocav_message(ret, "cannot finish the movie", error, size);
    }
    if (ret >= 0 && w->format->pb) {
        ret = ff.avio_closep(&w->format->pb);
        if (ret < 0) ocav_message(ret, "cannot close the movie file", error, size);
    }
    ocav_free(w);
    return ret < 0 ? ret : 0;
}

/// Frees the writer without finishing the file (the caller deletes it).
void ocav_abort(ocav_writer *w) { ocav_free(w); }

/// Opens `path` as a local QuickTime/MP4 movie and nothing else: no other demuxer (a playlist, an image or a raw
/// stream named .mov would otherwise be followed or read) and no protocol but plain files (a playlist naming other
/// files or URLs). Returns avformat_open_input's result.
static int ocav_open_movie(AVFormatContext **in, const char *path) {
    AVDictionary *options = NULL;
    ff.av_dict_set(&options, "format_whitelist", "mov,mp4,m4a,3gp,3g2,mj2", 0);
    ff.av_dict_set(&options, "protocol_whitelist", "file", 0);
    int ret = ff.avformat_open_input(in, path, NULL, &options);
    ff.av_dict_free(&options);
    return ret;
}

/// Copies the audio and video streams of the movie at `in_path` into a new `format` file ("mp4", "mov") at
/// `out_path` without re-encoding (other streams, such as timed metadata, are left out). Returns 0 on success.
int ocav_remux(const char *in_path, const char *out_path, const char *format, char *error, int size) {
    AVFormatContext *in = NULL, *out = NULL;
    AVPacket *packet = NULL;
    int *map = NULL;
    if (!ocav_load(error, size)) return AVERROR(ENOSYS);
    int ret = ocav_open_movie(&in, in_path);
    if (ret < 0) { ocav_message(ret, "cannot read the movie", error, size); goto done; }
    if ((ret = ff.avformat_find_stream_info(in, NULL)) < 0) { ocav_message(ret, "cannot read the movie's streams", error, size); goto done; }
    if ((ret = ff.avformat_alloc_output_context2(&out, NULL, format, out_path)) < 0) { ocav_message(ret, "no muxer", error, size); goto done; }
    map = (int *)ff.av_calloc(in->nb_streams, sizeof(int));
    packet = ff.av_packet_alloc();
    if (!map || !packet) { ret = AVERROR(ENOMEM); snprintf(error, (size_t)size, "out of memory"); goto done; }
    int kept = 0, video = 0;
    for (unsigned i = 0; i < in->nb_streams; i++) {
        AVCodecParameters *par = in->streams[i]->codecpar;
        map[i] = -1;
        if (par->codec_type != AVMEDIA_TYPE_VIDEO && par->codec_type != AVMEDIA_TYPE_AUDIO) continue;
        if (par->codec_type == AVMEDIA_TYPE_VIDEO) video++;
        AVStream *o = ff.avformat_new_stream(out, NULL);
        if (!o) { ret = AVERROR(ENOMEM); snprintf(error, (size_t)size, "out of memory"); goto done; }
        if ((ret = ff.avcodec_parameters_copy(o->codecpar, par)) < 0) { ocav_message(ret, "cannot copy a stream", error, size); goto done; }
        o->codecpar->codec_tag = 0;
        if (par->codec_id == AV_CODEC_ID_HEVC) o->codecpar->codec_tag = MKTAG('h', 'v', 'c', '1');
        o->time_base = in->streams[i]->time_base;
        // The display matrix (a portrait movie's rotation) goes with the stream.
        size_t matrix_size = 0;
        const uint8_t *matrix = ff.av_stream_get_side_data(in->streams[i], AV_PKT_DATA_DISPLAYMATRIX, &matrix_size);
        if (matrix && matrix_size >= 9 * sizeof(int32_t)) {
            uint8_t *copy = ff.av_stream_new_side_data(o, AV_PKT_DATA_DISPLAYMATRIX, matrix_size);
            if (!copy) { ret = AVERROR(ENOMEM); snprintf(error, (size_t)size, "out of memory"); goto done; }
            memcpy(copy, matrix, matrix_size);
        }
        map[i] = kept++;
    }
    if (video == 0) { ret = AVERROR_INVALIDDATA; snprintf(error, (size_t)size, "the movie has no video stream"); goto done; }
    // The movie's creation time (its mvhd, which the muxer also writes into every tkhd and mdhd).
    const AVDictionaryEntry *created = ff.av_dict_get(in->metadata, "creation_time", NULL, 0);
    if (created && (ret = ff.av_dict_set(&out->metadata, "creation_time", created->value, 0)) < 0) {
        ocav_message(ret, "cannot copy the creation time", error, size); goto done;
    }
    if ((ret = ff.avio_open(&out->pb, out_path, AVIO_FLAG_WRITE)) < 0) { ocav_message(ret, "cannot create the file", error, size); goto done; }
    if ((ret = ff.avformat_write_header(out, NULL)) < 0) { ocav_message(ret, "cannot write the header", error, size); goto done; }
    while ((ret = ff.av_read_frame(in, packet)) >= 0) {
        int index = packet->stream_index;
        if (index < 0 || (unsigned)index >= in->nb_streams || map[index] < 0) { ff.av_packet_unref(packet); continue; }
        packet->stream_index = map[index];
        ff.av_packet_rescale_ts(packet, in->streams[index]->time_base, out->streams[map[index]]->time_base);
        packet->pos = -1;
        if ((ret = ff.av_interleaved_write_frame(out, packet)) < 0) { ocav_message(ret, "cannot write a packet", error, size); goto done; }
    }
    if (ret != AVERROR_EOF) { ocav_message(ret, "cannot read a packet", error, size); goto done; }
    if ((ret = ff.av_write_trailer(out)) < 0) { ocav_message(ret, "cannot finish the file", error, size); goto done; }
    ret = 0;
done:
    if (packet) ff.av_packet_free(&packet);
    ff.av_free(map);
    if (in) ff.avformat_close_input(&in);
    if (out) {
        if (out->pb) ff.avio_closep(&out->pb);
        ff.avformat_free_context(out);
    }
    return ret < 0 ? ret : 0;
}


struct ocav_frame {
    AVFrame *frame;
};

void ocav_frame_free(ocav_frame *f) {
    if (!f) return;
    if (f->frame) ff.av_frame_free(&f->frame);
    ff.av_free(f);
}

/// How a sample format lays out its planes (bit depth, planes, chroma subsampling; for RGB, the planes' order or the
/// packed bytes' places); 0 for one this reader does not take. An alpha plane or byte is left out: a movie's frame is
/// shown opaque (ProRes 4444's, QuickTime Animation's).
static int ocav_layout(int format, ocav_frame_info *info) {
    int depth, planes = 3, sx = 1, sy = 1, full = 0, rgb = 0, packed = 0, r = 0, g = 1, b = 2;
    switch (format) {
    case AV_PIX_FMT_YUVJ420P: full = 1; // fallthrough
    case AV_PIX_FMT_YUVA420P:
    case AV_PIX_FMT_YUV420P: depth = 8; break;
    case AV_PIX_FMT_YUVJ422P: full = 1; // fallthrough
    case AV_PIX_FMT_YUVA422P:
    case AV_PIX_FMT_YUV422P: depth = 8; sy = 0; break;
    case AV_PIX_FMT_YUVJ444P: full = 1; // fallthrough
    case AV_PIX_FMT_YUVA444P:
    case AV_PIX_FMT_YUV444P: depth = 8; sx = sy = 0; break;
    case AV_PIX_FMT_NV12: depth = 8; planes = 2; break;
    case AV_PIX_FMT_GRAY8: depth = 8; planes = 1; break;
    case AV_PIX_FMT_YUVA420P10LE:
    case AV_PIX_FMT_YUV420P10LE: depth = 10; break;
    case AV_PIX_FMT_YUVA422P10LE:
    case AV_PIX_FMT_YUV422P10LE: depth = 10; sy = 0; break;
    case AV_PIX_FMT_YUVA444P10LE:
    case AV_PIX_FMT_YUV444P10LE: depth = 10; sx = sy = 0; break;
    case AV_PIX_FMT_YUV420P12LE: depth = 12; break;
    case AV_PIX_FMT_YUVA422P12LE:
    case AV_PIX_FMT_YUV422P12LE: depth = 12; sy = 0; break;
    case AV_PIX_FMT_YUVA444P12LE:
    case AV_PIX_FMT_YUV444P12LE: depth = 12; sx = sy = 0; break;
    case AV_PIX_FMT_GRAY10LE: depth = 10; planes = 1; break;
    case AV_PIX_FMT_GRAY12LE: depth = 12; planes = 1; break;
    // Planar RGB (VP9, AV1, H.264 and HEVC coded as RGB), stored G, B, R.
    case AV_PIX_FMT_GBRAP:
    case AV_PIX_FMT_GBRP: depth = 8; rgb = 1; sx = sy = 0; break;
    case AV_PIX_FMT_GBRAP10LE:
    case AV_PIX_FMT_GBRP10LE: depth = 10; rgb = 1; sx = sy = 0; break;
    case AV_PIX_FMT_GBRAP12LE:
    case AV_PIX_FMT_GBRP12LE: depth = 12; rgb = 1; sx = sy = 0; break;
    // Packed 8-bit RGB (QuickTime Animation, PNG, raw video): bytes per pixel and where R, G and B sit.
    case AV_PIX_FMT_RGB24: depth = 8; packed = 3; break;
    case AV_PIX_FMT_BGR24: depth = 8; packed = 3; r = 2; b = 0; break;
    case AV_PIX_FMT_RGBA: case AV_PIX_FMT_RGB0: depth = 8; packed = 4; break;
    case AV_PIX_FMT_BGRA: case AV_PIX_FMT_BGR0: depth = 8; packed = 4; r = 2; b = 0; break;
    case AV_PIX_FMT_ARGB: case AV_PIX_FMT_0RGB: depth = 8; packed = 4; r = 1; g = 2; b = 3; break;
    case AV_PIX_FMT_ABGR: case AV_PIX_FMT_0BGR: depth = 8; packed = 4; r = 3; g = 2; b = 1; break;
    default: return 0;
    }
    if (packed) { planes = 1; sx = sy = 0; }
    info->bit_depth = depth;
    info->planes = planes;
    info->chroma_shift_x = planes == 1 ? 0 : sx;
    info->chroma_shift_y = planes == 1 ? 0 : sy;
    info->full_range = full;
    info->rgb = rgb || packed;
    info->packed_bytes = packed;
    info->packed_offsets[0] = r; info->packed_offsets[1] = g; info->packed_offsets[2] = b;
    return 1;
}

/// Decodes the frame shown at `seconds` (see CFFmpeg.h): seeks to the key frame at or before it, then decodes on to
/// the last frame whose time is not after it.
ocav_frame *ocav_decode_frame(const char *path, double seconds, ocav_frame_info *info, char *error, int size) {
    AVFormatContext *in = NULL;
    AVCodecContext *decoder = NULL;
    AVPacket *packet = NULL;
    AVFrame *frame = NULL, *kept = NULL;
    ocav_frame *result = NULL;
    int ret, have = 0, last_error = 0, errors = 0;
    memset(info, 0, sizeof *info);
    if (!ocav_load(error, size)) return NULL;
    ff.av_log_set_level(AV_LOG_ERROR);
    if ((ret = ocav_open_movie(&in, path)) < 0) { ocav_message(ret, "cannot read the movie", error, size); goto done; }
    const AVCodec *codec = NULL;
    int index = ff.av_find_best_stream(in, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (index == AVERROR_STREAM_NOT_FOUND || (index >= 0 && in->streams[index]->codecpar->width <= 0)) {
        // A container whose header does not say (an elementary stream): probe the data.
        if ((ret = ff.avformat_find_stream_info(in, NULL)) < 0) { ocav_message(ret, "cannot read the movie's streams", error, size); goto done; }
        index = ff.av_find_best_stream(in, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    }
    if (index == AVERROR_STREAM_NOT_FOUND) { snprintf(error, (size_t)size, "the movie has no video stream"); goto done; }
    if (index < 0 || !codec) { snprintf(error, (size_t)size, "FFmpeg has no decoder for the movie's video"); goto done; }
    AVStream *stream = in->streams[index];
    decoder = ff.avcodec_alloc_context3(codec);
    packet = ff.av_packet_alloc();
    frame = ff.av_frame_alloc();
    kept = ff.av_frame_alloc();
    if (!decoder || !packet || !frame || !kept) { snprintf(error, (size_t)size, "out of memory"); goto done; }
    if ((ret = ff.avcodec_parameters_to_context(decoder, stream->codecpar)) < 0) { ocav_message(ret, "cannot set up the decoder", error, size); goto done; }
    // Slices, not frames, in parallel: frame threads hold frames back, and one frame is wanted.
    decoder->thread_type = FF_THREAD_SLICE;
    decoder->thread_count = 0;
    if ((ret = ff.avcodec_open2(decoder, codec, NULL)) < 0) { ocav_message(ret, "cannot open the video decoder", error, size); goto done; }

    AVRational base = stream->time_base;
    int64_t start = stream->start_time == AV_NOPTS_VALUE ? 0 : stream->start_time;
    int64_t target = AV_NOPTS_VALUE;
    if (seconds > 0 && base.num > 0 && base.den > 0) {
        target = start + (int64_t)(seconds * base.den / base.num);
        // Not found (a time before the first key frame, a file that cannot seek): decoding goes on from the start.
        ff.avformat_seek_file(in, index, INT64_MIN, target, target, 0);
    }
    int draining = 0, done_decoding = 0;
    while (!done_decoding) {
        if (!draining) {
            ret = ff.av_read_frame(in, packet);
            if (ret < 0) { draining = 1; ret = ff.avcodec_send_packet(decoder, NULL); }
            else if (packet->stream_index != index) { ff.av_packet_unref(packet); continue; }
            else { ret = ff.avcodec_send_packet(decoder, packet); ff.av_packet_unref(packet); }
            // A damaged packet is skipped (its error kept, to report if no frame decodes at all); a movie whose first
            // 32 packets all fail is taken as undecodable rather than read to its end.
            if (ret < 0 && ret != AVERROR(EAGAIN) && ret != AVERROR_EOF) {
                last_error = ret;
                if (++errors >= 32 && !have) break;
            }
        }
        for (;;) {
            ret = ff.avcodec_receive_frame(decoder, frame);
            if (ret == AVERROR(EAGAIN)) break;
            if (ret == AVERROR_EOF) { done_decoding = 1; break; }
            if (ret < 0) { last_error = ret; if (draining) { done_decoding = 1; break; } else break; }
            int64_t ts = frame->best_effort_timestamp;
            // Past the target: the frame before it is the one shown then (or this one, when none came before).
            if (target != AV_NOPTS_VALUE && ts != AV_NOPTS_VALUE && ts > target && have) {
                ff.av_frame_unref(frame);
                done_decoding = 1;
                break;
            }
            ff.av_frame_unref(kept);
            ff.av_frame_move_ref(kept, frame);
            have = 1;
            if (target == AV_NOPTS_VALUE || ts == AV_NOPTS_VALUE || ts >= target) { done_decoding = 1; break; }
        }
    }
    if (!have) {
        if (last_error < 0) ocav_message(last_error, "cannot decode the movie's video", error, size);
        else snprintf(error, (size_t)size, "the movie's video has no frame");
        goto done;
    }
    if (!ocav_layout(kept->format, info)) {
        const char *name = ff.av_get_pix_fmt_name(kept->format);
        if (name) snprintf(error, (size_t)size, "video frames in sample format %s are not read", name);
        else snprintf(error, (size_t)size, "video frames in sample format %d are not read", kept->format);
        goto done;
    }
    info->width = kept->width;
    info->height = kept->height;
    for (int i = 0; i < info->planes; i++) { info->data[i] = kept->data[i]; info->linesize[i] = kept->linesize[i]; }
    if (kept->color_range == AVCOL_RANGE_JPEG) info->full_range = 1;
    info->matrix = kept->colorspace != AVCOL_SPC_UNSPECIFIED ? (int)kept->colorspace : (int)decoder->colorspace;
    size_t matrix_size = 0;
    const uint8_t *matrix = ff.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &matrix_size);
    if (matrix && matrix_size >= 9 * sizeof(int32_t)) {
        memcpy(info->display_matrix, matrix, 9 * sizeof(int32_t));
        info->has_display_matrix = 1;
    }
    int64_t shown = kept->best_effort_timestamp == AV_NOPTS_VALUE ? start : kept->best_effort_timestamp;
    info->time = base.den > 0 ? (double)(shown - start) * base.num / base.den : 0;
    result = (ocav_frame *)ff.av_mallocz(sizeof(ocav_frame));
    if (!result) { snprintf(error, (size_t)size, "out of memory"); memset(info, 0, sizeof *info); goto done; }
    result->frame = kept;
    kept = NULL;
done:
    if (kept) ff.av_frame_free(&kept);
    if (frame) ff.av_frame_free(&frame);
    if (packet) ff.av_packet_free(&packet);
    if (decoder) ff.avcodec_free_context(&decoder);
    if (in) ff.avformat_close_input(&in);
    return result;
}
