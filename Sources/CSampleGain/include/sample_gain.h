#ifndef CLOUDPLAYERD_SAMPLE_GAIN_H
#define CLOUDPLAYERD_SAMPLE_GAIN_H

#include <stddef.h>
#include <stdint.h>

/* ReplayGain's inner loop, in C with vector instructions (SSE2, AVX2 where the processor has it):
   Swift's checked float-to-integer conversions kept its loop scalar (+37 % of decode time).
   Each sample is scaled, held within its width and rounded to the nearest step (halves to
   even). No dither. */

/* 16-bit samples as floats: the product of a sample and a gain is within about 1/1000 of a step
   of the exact one, far inside the 1 LSB a reference comparison allows. */
void cp_scale_int16(int16_t *samples, size_t count, float gain);

/* 24-bit samples in 32-bit words: double, as a float's 24-bit mantissa would round them. */
void cp_scale_int24(int32_t *samples, size_t count, double gain);

/* 32-bit samples (32-bit FLAC), one at a time in double (rare enough not to need vectors). */
void cp_scale_int32(int32_t *samples, size_t count, double gain);

/* The same without AVX2 (SSE2, else one sample at a time): what a processor without AVX2 runs,
   callable here so that tests check it on any machine. */
void cp_scale_int16_without_avx2(int16_t *samples, size_t count, float gain);
void cp_scale_int24_without_avx2(int32_t *samples, size_t count, double gain);

/* FFmpeg's float output (one plane per channel, from frame `first`, `frames` of them) as
   interleaved 16-bit samples: x·32768 rounded to the nearest step and held within 16 bits, as
   FFmpeg's own conversion does (lrintf, clip). SSE2 for mono and stereo; Swift's checked
   conversions made this a quarter of AAC's decode time. */
void cp_float_planes_to_int16(const float *const *planes, size_t channels, size_t first, size_t frames, int16_t *out);

#endif
