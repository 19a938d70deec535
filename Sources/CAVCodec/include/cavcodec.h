#ifndef CLOUDPLAYERD_CAVCODEC_H
#define CLOUDPLAYERD_CAVCODEC_H

/* FFmpeg's libavcodec, loaded when the first AAC or ALAC track (or AES-128 HLS segment) opens (dlopen), not when the
   program starts: linked, it and its 90-odd libraries (video codecs, VA-API, OpenCL…) cost every
   start of cloudplayerd and cloudplayerctl 16 ms, five times the rest of its libraries together.
   Its headers give the types; these functions call through pointers resolved once. */

#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>

/* Loads libavcodec and libavutil (the versions these headers are of) once; 1 if loaded, else 0,
   with the loader's reason in cavcodec_load_error(). Safe from any thread. */
int cavcodec_load(void);
const char *cavcodec_load_error(void);

/* Each as the FFmpeg function of the same name without the prefix; call only after cavcodec_load() said 1. */
const AVCodec *cavcodec_find_decoder(enum AVCodecID id);
AVCodecContext *cavcodec_alloc_context3(const AVCodec *codec);
int cavcodec_open2(AVCodecContext *context, const AVCodec *codec);
void cavcodec_free_context(AVCodecContext **context);
AVPacket *cavcodec_packet_alloc(void);
void cavcodec_packet_free(AVPacket **packet);
int cavcodec_new_packet(AVPacket *packet, int size);
void cavcodec_packet_unref(AVPacket *packet);
AVFrame *cavcodec_frame_alloc(void);
void cavcodec_frame_free(AVFrame **frame);
void cavcodec_frame_unref(AVFrame *frame);
void *cavcodec_mallocz(size_t size);
void cavcodec_channel_layout_default(AVChannelLayout *layout, int channels);
int cavcodec_send_packet(AVCodecContext *context, const AVPacket *packet);
int cavcodec_receive_frame(AVCodecContext *context, AVFrame *frame);

/* Decrypts `blocks` 16-byte blocks of `data` in place with AES-128 in CBC mode (libavutil's
   av_aes): `key` 16 bytes; `iv` 16 bytes, left as the last ciphertext block (to go on with the
   next call). 0, or -1 if out of memory. HLS segments are encrypted so (RFC 8216, 5.2). */
int cavcodec_aes128_cbc_decrypt(const uint8_t *key, uint8_t *iv, uint8_t *data, int blocks);

/* AVERROR(EAGAIN) and AVERROR_EOF are function-like and tag macros, which Swift does not import. */
static inline int cavcodec_error_again(void) { return AVERROR(EAGAIN); }
static inline int cavcodec_error_eof(void) { return AVERROR_EOF; }
/* The padding FFmpeg reads past the end of every packet and of extradata. */
static inline int cavcodec_input_padding(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }

#endif
