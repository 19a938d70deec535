#include "cavcodec.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define CAV_STRING2(x) #x
#define CAV_STRING(x) CAV_STRING2(x)

static struct {
    const AVCodec *(*find_decoder)(enum AVCodecID);
    AVCodecContext *(*alloc_context3)(const AVCodec *);
    int (*open2)(AVCodecContext *, const AVCodec *, AVDictionary **);
    void (*free_context)(AVCodecContext **);
    AVPacket *(*packet_alloc)(void);
    void (*packet_free)(AVPacket **);
    int (*new_packet)(AVPacket *, int);
    void (*packet_unref)(AVPacket *);
    AVFrame *(*frame_alloc)(void);
    void (*frame_free)(AVFrame **);
    void (*frame_unref)(AVFrame *);
    void *(*mallocz)(size_t);
    void (*channel_layout_default)(AVChannelLayout *, int);
    int (*send_packet)(AVCodecContext *, const AVPacket *);
    int (*receive_frame)(AVCodecContext *, AVFrame *);
    struct AVAES *(*aes_alloc)(void);
    int (*aes_init)(struct AVAES *, const uint8_t *, int, int);
    void (*aes_crypt)(struct AVAES *, uint8_t *, const uint8_t *, int, uint8_t *, int);
    void (*free)(void *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

/* The libraries of the major versions the headers are of: another major changes structures. */
static const char *const avutil_name = "libavutil.so." CAV_STRING(LIBAVUTIL_VERSION_MAJOR);
static const char *const avcodec_name = "libavcodec.so." CAV_STRING(LIBAVCODEC_VERSION_MAJOR);

static int resolve(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (!*slot) snprintf(failure, sizeof failure, "FFmpeg's libraries have no %s", name);
    return *slot != NULL;
}

static void load(void) {
    void *avutil = dlopen(avutil_name, RTLD_NOW | RTLD_LOCAL);
    void *avcodec = avutil ? dlopen(avcodec_name, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!avutil || !avcodec) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : "cannot be loaded");
        return;
    }
    loaded = resolve(avcodec, "avcodec_find_decoder", (void **)&api.find_decoder)
        && resolve(avcodec, "avcodec_alloc_context3", (void **)&api.alloc_context3)
        && resolve(avcodec, "avcodec_open2", (void **)&api.open2)
        && resolve(avcodec, "avcodec_free_context", (void **)&api.free_context)
        && resolve(avcodec, "av_packet_alloc", (void **)&api.packet_alloc)
        && resolve(avcodec, "av_packet_free", (void **)&api.packet_free)
        && resolve(avcodec, "av_new_packet", (void **)&api.new_packet)
        && resolve(avcodec, "av_packet_unref", (void **)&api.packet_unref)
        && resolve(avutil, "av_frame_alloc", (void **)&api.frame_alloc)
        && resolve(avutil, "av_frame_free", (void **)&api.frame_free)
        && resolve(avutil, "av_frame_unref", (void **)&api.frame_unref)
        && resolve(avutil, "av_mallocz", (void **)&api.mallocz)
        && resolve(avutil, "av_channel_layout_default", (void **)&api.channel_layout_default)
        && resolve(avcodec, "avcodec_send_packet", (void **)&api.send_packet)
        && resolve(avcodec, "avcodec_receive_frame", (void **)&api.receive_frame)
        && resolve(avutil, "av_aes_alloc", (void **)&api.aes_alloc)
        && resolve(avutil, "av_aes_init", (void **)&api.aes_init)
        && resolve(avutil, "av_aes_crypt", (void **)&api.aes_crypt)
        && resolve(avutil, "av_free", (void **)&api.free);
}

int cavcodec_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cavcodec_load_error(void) { return failure; }

const AVCodec *cavcodec_find_decoder(enum AVCodecID id) { return api.find_decoder(id); }
AVCodecContext *cavcodec_alloc_context3(const AVCodec *codec) { return api.alloc_context3(codec); }
int cavcodec_open2(AVCodecContext *context, const AVCodec *codec) { return api.open2(context, codec, NULL); }
void cavcodec_free_context(AVCodecContext **context) { api.free_context(context); }
AVPacket *cavcodec_packet_alloc(void) { return api.packet_alloc(); }
void cavcodec_packet_free(AVPacket **packet) { api.packet_free(packet); }
int cavcodec_new_packet(AVPacket *packet, int size) { return api.new_packet(packet, size); }
void cavcodec_packet_unref(AVPacket *packet) { api.packet_unref(packet); }
AVFrame *cavcodec_frame_alloc(void) { return api.frame_alloc(); }
void cavcodec_frame_free(AVFrame **frame) { api.frame_free(frame); }
void cavcodec_frame_unref(AVFrame *frame) { api.frame_unref(frame); }
void *cavcodec_mallocz(size_t size) { return api.mallocz(size); }
void cavcodec_channel_layout_default(AVChannelLayout *layout, int channels) { api.channel_layout_default(layout, channels); }
int cavcodec_send_packet(AVCodecContext *context, const AVPacket *packet) { return api.send_packet(context, packet); }
int cavcodec_receive_frame(AVCodecContext *context, AVFrame *frame) { return api.receive_frame(context, frame); }

int cavcodec_aes128_cbc_decrypt(const uint8_t *key, uint8_t *iv, uint8_t *data, int blocks) {
    struct AVAES *aes = api.aes_alloc();
    if (!aes) return -1;
    int status = api.aes_init(aes, key, 128, 1);
    if (status == 0) api.aes_crypt(aes, data, data, blocks, iv, 1);
    api.free(aes);
    return status;
}
