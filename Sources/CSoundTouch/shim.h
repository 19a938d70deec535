/* SoundTouch's C interface (libSoundTouchDll, from libsoundtouch-dev): the C++ library's
   pkg-config file does not name it, so the module map links it by name. */
#include <SoundTouchDLL.h>
