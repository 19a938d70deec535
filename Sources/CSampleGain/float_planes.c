#include "sample_gain.h"

#if defined(__SSE2__)
#include <emmintrin.h>

/* x·32768, held within 16 bits, rounded by the processor (to nearest, halves to even): what
   FFmpeg's own conversion (lrintf, then a clip) gives. A NaN is held to -32768, as there. */
static inline __m128i convert4(__m128 samples) {
    const __m128 scale = _mm_set1_ps(32768.0f), low = _mm_set1_ps(-32768.0f), high = _mm_set1_ps(32767.0f);
    /* maxps returns its second operand when either is NaN. */
    return _mm_cvtps_epi32(_mm_min_ps(_mm_max_ps(_mm_mul_ps(samples, scale), low), high));
}

static inline int16_t convert1(float sample) {
    const __m128 low = _mm_set_ss(-32768.0f), high = _mm_set_ss(32767.0f);
    return (int16_t)_mm_cvtss_si32(_mm_min_ss(_mm_max_ss(_mm_set_ss(sample * 32768.0f), low), high));
}
#else
static inline int16_t convert1(float sample) {
    float scaled = sample * 32768.0f;
    scaled = scaled >= -32768.0f ? scaled : -32768.0f;
    scaled = scaled > 32767.0f ? 32767.0f : scaled;
    return (int16_t)__builtin_rintf(scaled);
}
#endif

void cp_float_planes_to_int16(const float *const *planes, size_t channels, size_t first, size_t frames, int16_t *out) {
    size_t i = 0;
#if defined(__SSE2__)
    if (channels == 1) {
        const float *mono = planes[0] + first;
        for (; i + 8 <= frames; i += 8) {
            __m128i packed = _mm_packs_epi32(convert4(_mm_loadu_ps(mono + i)), convert4(_mm_loadu_ps(mono + i + 4)));
            _mm_storeu_si128((__m128i *)(out + i), packed);
        }
    } else if (channels == 2) {
        const float *left = planes[0] + first, *right = planes[1] + first;
        for (; i + 4 <= frames; i += 4) {
            __m128i l = convert4(_mm_loadu_ps(left + i)), r = convert4(_mm_loadu_ps(right + i));
            /* l0 r0 l1 r1 | l2 r2 l3 r3, packed to eight interleaved 16-bit samples. */
            _mm_storeu_si128((__m128i *)(out + 2 * i), _mm_packs_epi32(_mm_unpacklo_epi32(l, r), _mm_unpackhi_epi32(l, r)));
        }
    }
#endif
    for (size_t channel = 0; channel < channels; channel++) {
        const float *plane = planes[channel] + first;
        for (size_t frame = i; frame < frames; frame++) out[frame * channels + channel] = convert1(plane[frame]);
    }
}
