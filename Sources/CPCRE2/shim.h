/* PCRE2 (the library MPD matches its filters' regular expressions with), for 8-bit code
   units: UTF-8 text. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
