/* bench/speed's stretcher: one 16-bit stereo (or mono) WAV through SoundTouch or Rubber Band at
 * a speed, in blocks of 1024 frames as a player feeds them, pitch kept; the output to a WAV. It
 * prints the CPU time of the stretching alone (the process clock around the library's calls, not
 * the file's reading), so the libraries are compared on the same work:
 *   stretch ENGINE SPEED IN.wav OUT.wav     ENGINE: soundtouch | rubberband | rubberband-r3
 * Output line: engine speed in_seconds out_seconds cpu_seconds cpu_seconds_per_hour_of_input
 * Built by bench/speed/libs with gcc against Debian's libsoundtouch-dev and librubberband-dev. */
#include <SoundTouchDLL.h>
#include <rubberband/rubberband-c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { block = 1024 };

typedef struct { uint32_t rate; uint16_t channels; int16_t *samples; size_t frames; } wav;

static void fail(const char *what) { fprintf(stderr, "stretch: %s\n", what); exit(1); }

/* A canonical 16-bit PCM WAV (sox writes these): the fmt and data chunks found by name. */
static wav readwav(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) fail("cannot open the input");
    unsigned char head[12];
    if (fread(head, 1, 12, f) != 12 || memcmp(head, "RIFF", 4) || memcmp(head + 8, "WAVE", 4)) fail("not a WAV");
    wav w = {0};
    for (;;) {
        unsigned char chunk[8];
        if (fread(chunk, 1, 8, f) != 8) fail("no data chunk");
        uint32_t size = chunk[4] | chunk[5] << 8 | chunk[6] << 16 | (uint32_t)chunk[7] << 24;
        if (!memcmp(chunk, "fmt ", 4)) {
            unsigned char fmt[16];
            if (size < 16 || fread(fmt, 1, 16, f) != 16) fail("short fmt chunk");
            w.channels = fmt[2] | fmt[3] << 8;
            w.rate = fmt[4] | fmt[5] << 8 | fmt[6] << 16 | (uint32_t)fmt[7] << 24;
            if ((fmt[14] | fmt[15] << 8) != 16) fail("not 16-bit");
            fseek(f, size - 16, SEEK_CUR);
        } else if (!memcmp(chunk, "data", 4)) {
            if (!w.channels) fail("data before fmt");
            w.samples = malloc(size);
            w.frames = fread(w.samples, 1, size, f) / (2 * w.channels);
            break;
        } else {
            fseek(f, size + (size & 1), SEEK_CUR);
        }
    }
    fclose(f);
    return w;
}

static void put32(FILE *f, uint32_t v) { fputc(v, f); fputc(v >> 8, f); fputc(v >> 16, f); fputc(v >> 24, f); }
static void put16(FILE *f, uint16_t v) { fputc(v, f); fputc(v >> 8, f); }

static void writewav(const char *path, const float *out, size_t frames, uint16_t channels, uint32_t rate) {
    FILE *f = fopen(path, "wb");
    if (!f) fail("cannot write the output");
    uint32_t bytes = frames * channels * 2;
    fwrite("RIFF", 1, 4, f); put32(f, 36 + bytes); fwrite("WAVEfmt ", 1, 8, f);
    put32(f, 16); put16(f, 1); put16(f, channels); put32(f, rate); put32(f, rate * channels * 2); put16(f, channels * 2); put16(f, 16);
    fwrite("data", 1, 4, f); put32(f, bytes);
    for (size_t i = 0; i < frames * channels; i++) {
        float v = out[i] * 32768.0f;
        put16(f, (uint16_t)(int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v));
    }
    fclose(f);
}

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Takes what Rubber Band has ready into `out`, the first `delay` frames dropped; returns what
 * `rubberband_available` said last (-1 once it has given everything after the final block). */
static int take(RubberBandState rb, float **planes, unsigned c, size_t delay, size_t *skipped, float *out, size_t *made, size_t capacity) {
    int available;
    while ((available = rubberband_available(rb)) > 0) {
        unsigned got = rubberband_retrieve(rb, planes, available < block * 4 ? available : block * 4);
        for (unsigned i = 0; i < got; i++) {
            if (*skipped < delay) { (*skipped)++; continue; }
            if (*made >= capacity) break;
            for (unsigned ch = 0; ch < c; ch++) out[*made * c + ch] = planes[ch][i];
            (*made)++;
        }
    }
    return available;
}

int main(int argc, char **argv) {
    if (argc != 5) fail("usage: stretch soundtouch|rubberband|rubberband-r3 SPEED IN.wav OUT.wav");
    const char *engine = argv[1];
    double speed = atof(argv[2]);
    wav w = readwav(argv[3]);
    unsigned c = w.channels;
    size_t capacity = (size_t)(w.frames / speed) + 48000 * 4;
    float *out = calloc(capacity * c, sizeof(float)), *in = malloc(block * c * sizeof(float));
    size_t made = 0;
    double used = 0;
    if (!strcmp(engine, "soundtouch")) {
        HANDLE st = soundtouch_createInstance();
        soundtouch_setSampleRate(st, w.rate);
        soundtouch_setChannels(st, c);
        soundtouch_setTempo(st, speed);
        for (size_t at = 0; at <= w.frames; at += block) {
            size_t n = at + block <= w.frames ? block : w.frames - at;
            for (size_t i = 0; i < n * c; i++) in[i] = w.samples[at * c + i] / 32768.0f;
            double t = cpu();
            if (n) soundtouch_putSamples(st, in, n);
            if (at + block > w.frames) soundtouch_flush(st);
            unsigned got;
            while ((got = soundtouch_receiveSamples(st, out + made * c, capacity - made)) > 0) made += got;
            used += cpu() - t;
        }
        soundtouch_destroyInstance(st);
    } else if (!strcmp(engine, "rubberband") || !strcmp(engine, "rubberband-r3")) {
        RubberBandOptions options = RubberBandOptionProcessRealTime | (strcmp(engine, "rubberband") ? RubberBandOptionEngineFiner : 0);
        double t = cpu();
        RubberBandState rb = rubberband_new(w.rate, c, options, 1.0 / speed, 1.0);
        float *planes[8], *outplanes[8];
        for (unsigned ch = 0; ch < c; ch++) planes[ch] = malloc(block * sizeof(float));
        float *scratch = malloc(block * 4 * c * sizeof(float));
        for (unsigned ch = 0; ch < c; ch++) outplanes[ch] = scratch + ch * block * 4;
        /* What the real-time mode asks: silence first, and as much of the output dropped. */
        unsigned pad = rubberband_get_preferred_start_pad(rb), delay = rubberband_get_start_delay(rb);
        used += cpu() - t;
        size_t skipped = 0;
        for (size_t at = 0; ; ) {
            size_t n;
            t = cpu();
            if (pad) {
                n = pad < block ? pad : block;
                for (unsigned ch = 0; ch < c; ch++) memset(planes[ch], 0, n * sizeof(float));
                pad -= n;
                used += cpu() - t;
            } else {
                n = at + block <= w.frames ? block : w.frames - at;
                for (size_t i = 0; i < n; i++)
                    for (unsigned ch = 0; ch < c; ch++) planes[ch][i] = w.samples[(at + i) * c + ch] / 32768.0f;
                at += n;
                t = cpu();
            }
            int last = !pad && at >= w.frames;
            rubberband_process(rb, (const float *const *)planes, n, last);
            int available = take(rb, outplanes, c, delay, &skipped, out, &made, capacity);
            /* After the final block, until it says it has given everything (-1). */
            while (last && available == 0) {
                rubberband_process(rb, (const float *const *)planes, 0, 1);
                available = take(rb, outplanes, c, delay, &skipped, out, &made, capacity);
            }
            used += cpu() - t;
            if (last) break;
        }
        rubberband_delete(rb);
    } else {
        fail("engine: soundtouch, rubberband or rubberband-r3");
    }
    writewav(argv[4], out, made, c, w.rate);
    double seconds = (double)w.frames / w.rate;
    printf("%s %.2f %.3f %.3f %.3f %.1f\n", engine, speed, seconds, (double)made / w.rate, used, used * 3600 / seconds);
    return 0;
}
