#include <libavcodec/avcodec.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>

/* AVERROR(EAGAIN) and AVERROR_EOF are function-like and tag macros, which Swift does not import. */
static inline int cavcodec_error_again(void) { return AVERROR(EAGAIN); }
static inline int cavcodec_error_eof(void) { return AVERROR_EOF; }
/* The padding FFmpeg reads past the end of every packet and of extradata. */
static inline int cavcodec_input_padding(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }
