#ifndef CLOUDPLAYERD_CURL_SHIM_H
#define CLOUDPLAYERD_CURL_SHIM_H

/* libcurl, loaded (dlopen) for the first HTTP request, not when the program starts: linked, it
   and the libraries it brings (OpenSSL, GnuTLS for librtmp, Kerberos, LDAP, libssh2, nghttp2…)
   were 5–6 MiB of an idle daemon's RSS that never asked a server anything. Its header gives the
   types and constants; these functions call through pointers resolved once. */

#include <curl/curl.h>

/* Loads libcurl (libcurl.so.4) and runs its global set-up, once; 1 if loaded, else 0, with the
   loader's reason in cp_curl_load_error(). Safe from any thread. */
int cp_curl_load(void);
const char *cp_curl_load_error(void);

/* Each as the libcurl function of the same name without the prefix; call only after
   cp_curl_load() said 1. curl_easy_setopt and curl_easy_getinfo, which are variadic, have one
   typed function per kind of argument. */
CURL *cp_curl_easy_init(void);
void cp_curl_easy_cleanup(CURL *easy);
const char *cp_curl_easy_strerror(CURLcode code);
struct curl_slist *cp_curl_slist_append(struct curl_slist *list, const char *line);
void cp_curl_slist_free_all(struct curl_slist *list);
CURLM *cp_curl_multi_init(void);
CURLMcode cp_curl_multi_add_handle(CURLM *multi, CURL *easy);
CURLMcode cp_curl_multi_remove_handle(CURLM *multi, CURL *easy);
CURLMcode cp_curl_multi_perform(CURLM *multi, int *running);
CURLMsg *cp_curl_multi_info_read(CURLM *multi, int *left);
CURLMcode cp_curl_multi_timeout(CURLM *multi, long *milliseconds);
CURLMcode cp_curl_multi_poll(CURLM *multi, int milliseconds);
CURLMcode cp_curl_multi_wakeup(CURLM *multi);
CURLMcode cp_curl_multi_cleanup(CURLM *multi);

CURLcode cp_curl_set_long(CURL *easy, CURLoption option, long value);
CURLcode cp_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value);
CURLcode cp_curl_set_string(CURL *easy, CURLoption option, const char *value);
/* For an option whose value is a pointer libcurl keeps (a header list, the error buffer). */
CURLcode cp_curl_set_pointer(CURL *easy, CURLoption option, void *value);

typedef size_t (*cp_curl_data_callback)(char *data, size_t size, size_t count, void *context);
/* The header and write callbacks, with `context` as each one's last argument. */
CURLcode cp_curl_set_callbacks(CURL *easy, cp_curl_data_callback header, cp_curl_data_callback write, void *context);
/* CURLOPT_PREREQFUNCTION, with `context` as its first argument: called once connected, before the request. */
CURLcode cp_curl_set_prereq(CURL *easy, curl_prereq_callback prereq, void *context);

CURLcode cp_curl_get_long(CURL *easy, CURLINFO info, long *value);
CURLcode cp_curl_get_offset(CURL *easy, CURLINFO info, curl_off_t *value);

/* Lets a transfer paused by a write callback's CURL_WRITEFUNC_PAUSE go on. */
CURLcode cp_curl_unpause(CURL *easy);

/* What ended a transfer, from curl_multi_info_read's message (its `data` is a union). */
CURLcode cp_curl_message_result(const CURLMsg *message);

#endif
