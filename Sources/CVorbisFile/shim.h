/* vorbisfile.h defines stdio-based callback tables as statics; we read through our own. */
#define OV_EXCLUDE_STATIC_CALLBACKS
#include <vorbis/vorbisfile.h>
