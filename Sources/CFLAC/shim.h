#include <FLAC/stream_decoder.h>

/* libFLAC's version as loaded: a global variable, which Swift 6 will not read unguarded. */
static inline const char *cflac_version_string(void) { return FLAC__VERSION_STRING; }
