#ifndef CLOUDPLAYERD_CURL_SHIM_H
#define CLOUDPLAYERD_CURL_SHIM_H

#include <curl/curl.h>

/* libcurl's one-time set-up, everything (TLS included): CURL_GLOBAL_ALL, a macro Swift cannot read. */
CURLcode cp_curl_global_init(void);

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
   function per kind of argument. */
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
