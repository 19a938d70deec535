#include "sample_gain.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Each sample: scaled, held within its width, rounded to the nearest step (the processor's
   rounding: halves to even). With SSE2 (every x86-64) eight 16-bit samples at a time: the
   conversion rounds and the pack saturates, so holding and rounding cost nothing extra. */

static inline int16_t scale_one16(int16_t sample, float gain) {
    float scaled = (float)sample * gain;
    scaled = scaled < -32768.0f ? -32768.0f : scaled;
    scaled = scaled > 32767.0f ? 32767.0f : scaled;
    return (int16_t)__builtin_rintf(scaled);
}

#if defined(__x86_64__)
#include <immintrin.h>

/* AVX2 (most x86-64 machines since 2013), chosen at run time: eight 16-bit samples widen in one
   step, and four 24-bit ones scale as doubles at once. */
__attribute__((target("avx2"))) static size_t scale_int16_avx2(int16_t *samples, size_t count, float gain) {
    const __m256 factor = _mm256_set1_ps(gain);
    const __m256 low = _mm256_set1_ps(-32768.0f), high = _mm256_set1_ps(32767.0f);
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i wide = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(samples + i)));
        __m256 scaled = _mm256_min_ps(_mm256_max_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(wide), factor), low), high);
        __m256i rounded = _mm256_cvtps_epi32(scaled);
        __m128i packed = _mm_packs_epi32(_mm256_castsi256_si128(rounded), _mm256_extracti128_si256(rounded, 1));
        _mm_storeu_si128((__m128i *)(samples + i), packed);
    }
    return i;
}

__attribute__((target("avx2"))) static size_t scale_int24_avx2(int32_t *samples, size_t count, double gain) {
    const __m256d factor = _mm256_set1_pd(gain);
    const __m256d low = _mm256_set1_pd(-8388608.0), high = _mm256_set1_pd(8388607.0);
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        __m256d wide = _mm256_cvtepi32_pd(_mm_loadu_si128((const __m128i *)(samples + i)));
        __m256d scaled = _mm256_min_pd(_mm256_max_pd(_mm256_mul_pd(wide, factor), low), high);
        _mm_storeu_si128((__m128i *)(samples + i), _mm256_cvtpd_epi32(scaled));
    }
    return i;
}
#endif

void cp_scale_int16(int16_t *samples, size_t count, float gain) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        size_t i = scale_int16_avx2(samples, count, gain);
        for (; i < count; i++) samples[i] = scale_one16(samples[i], gain);
        return;
    }
#endif
    cp_scale_int16_without_avx2(samples, count, gain);
}

void cp_scale_int16_without_avx2(int16_t *samples, size_t count, float gain) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128 factor = _mm_set1_ps(gain);
    /* Held first, so no product leaves int32 whatever the gain. */
    const __m128 low = _mm_set1_ps(-32768.0f), high = _mm_set1_ps(32767.0f);
    for (; i + 8 <= count; i += 8) {
        __m128i packed = _mm_loadu_si128((const __m128i *)(samples + i));
        /* Sign-extend the eight 16-bit values to two vectors of four 32-bit ones. */
        __m128i lo = _mm_srai_epi32(_mm_unpacklo_epi16(packed, packed), 16);
        __m128i hi = _mm_srai_epi32(_mm_unpackhi_epi16(packed, packed), 16);
        __m128 a = _mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_cvtepi32_ps(lo), factor), low), high);
        __m128 b = _mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_cvtepi32_ps(hi), factor), low), high);
        _mm_storeu_si128((__m128i *)(samples + i), _mm_packs_epi32(_mm_cvtps_epi32(a), _mm_cvtps_epi32(b)));
    }
#endif
    for (; i < count; i++) samples[i] = scale_one16(samples[i], gain);
}

void cp_scale_int24(int32_t *samples, size_t count, double gain) {
    size_t i = 0;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) i = scale_int24_avx2(samples, count, gain);
#endif
    cp_scale_int24_without_avx2(samples + i, count - i, gain);
}

/* One sample at a time in double, held within [low, high]: 24-bit's tail, and 32-bit. */
static void scale_int32_within(int32_t *samples, size_t count, double gain, double low, double high) {
    for (size_t i = 0; i < count; i++) {
        double scaled = (double)samples[i] * gain;
        scaled = scaled < low ? low : scaled;
        scaled = scaled > high ? high : scaled;
        samples[i] = (int32_t)__builtin_rint(scaled);
    }
}

void cp_scale_int24_without_avx2(int32_t *samples, size_t count, double gain) {
    scale_int32_within(samples, count, gain, -8388608.0, 8388607.0);
}

void cp_scale_int32(int32_t *samples, size_t count, double gain) {
    scale_int32_within(samples, count, gain, -2147483648.0, 2147483647.0);
}
