#include "curl_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLcode (*easy_pause)(CURL *, int);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_timeout)(CURLM *, long *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMcode (*multi_cleanup)(CURLM *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static int resolve(void *library, const char *name, void **slot) {
    *slot = dlsym(library, name);
    if (!*slot) snprintf(failure, sizeof failure, "libcurl has no %s", name);
    return *slot != NULL;
}

static void load(void) {
    /* The library of the major version the header is of (libcurl4's). */
    void *curl = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!curl) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : "libcurl cannot be loaded");
        return;
    }
    int resolved = resolve(curl, "curl_global_init", (void **)&api.global_init)
        && resolve(curl, "curl_easy_init", (void **)&api.easy_init)
        && resolve(curl, "curl_easy_cleanup", (void **)&api.easy_cleanup)
        && resolve(curl, "curl_easy_setopt", (void **)&api.easy_setopt)
        && resolve(curl, "curl_easy_getinfo", (void **)&api.easy_getinfo)
        && resolve(curl, "curl_easy_pause", (void **)&api.easy_pause)
        && resolve(curl, "curl_easy_strerror", (void **)&api.easy_strerror)
        && resolve(curl, "curl_slist_append", (void **)&api.slist_append)
        && resolve(curl, "curl_slist_free_all", (void **)&api.slist_free_all)
        && resolve(curl, "curl_multi_init", (void **)&api.multi_init)
        && resolve(curl, "curl_multi_add_handle", (void **)&api.multi_add_handle)
        && resolve(curl, "curl_multi_remove_handle", (void **)&api.multi_remove_handle)
        && resolve(curl, "curl_multi_perform", (void **)&api.multi_perform)
        && resolve(curl, "curl_multi_info_read", (void **)&api.multi_info_read)
        && resolve(curl, "curl_multi_timeout", (void **)&api.multi_timeout)
        && resolve(curl, "curl_multi_poll", (void **)&api.multi_poll)
        && resolve(curl, "curl_multi_wakeup", (void **)&api.multi_wakeup)
        && resolve(curl, "curl_multi_cleanup", (void **)&api.multi_cleanup);
    if (!resolved) return;
    CURLcode initialized = api.global_init(CURL_GLOBAL_ALL);
    if (initialized != CURLE_OK) {
        snprintf(failure, sizeof failure, "libcurl's set-up failed: %s", api.easy_strerror(initialized));
        return;
    }
    loaded = 1;
}

int cp_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cp_curl_load_error(void) { return failure; }

CURL *cp_curl_easy_init(void) { return api.easy_init(); }
void cp_curl_easy_cleanup(CURL *easy) { api.easy_cleanup(easy); }
const char *cp_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
struct curl_slist *cp_curl_slist_append(struct curl_slist *list, const char *line) { return api.slist_append(list, line); }
void cp_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }
CURLM *cp_curl_multi_init(void) { return api.multi_init(); }
CURLMcode cp_curl_multi_add_handle(CURLM *multi, CURL *easy) { return api.multi_add_handle(multi, easy); }
CURLMcode cp_curl_multi_remove_handle(CURLM *multi, CURL *easy) { return api.multi_remove_handle(multi, easy); }
CURLMcode cp_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMsg *cp_curl_multi_info_read(CURLM *multi, int *left) { return api.multi_info_read(multi, left); }
CURLMcode cp_curl_multi_timeout(CURLM *multi, long *milliseconds) { return api.multi_timeout(multi, milliseconds); }
CURLMcode cp_curl_multi_poll(CURLM *multi, int milliseconds) { return api.multi_poll(multi, NULL, 0, milliseconds, NULL); }
CURLMcode cp_curl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
CURLMcode cp_curl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }

CURLcode cp_curl_set_long(CURL *easy, CURLoption option, long value) { return api.easy_setopt(easy, option, value); }
CURLcode cp_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value) { return api.easy_setopt(easy, option, value); }
CURLcode cp_curl_set_string(CURL *easy, CURLoption option, const char *value) { return api.easy_setopt(easy, option, value); }
CURLcode cp_curl_set_pointer(CURL *easy, CURLoption option, void *value) { return api.easy_setopt(easy, option, value); }

CURLcode cp_curl_set_callbacks(CURL *easy, cp_curl_data_callback header, cp_curl_data_callback write, void *context) {
    CURLcode result = api.easy_setopt(easy, CURLOPT_HEADERFUNCTION, header);
    if (result == CURLE_OK) result = api.easy_setopt(easy, CURLOPT_HEADERDATA, context);
    if (result == CURLE_OK) result = api.easy_setopt(easy, CURLOPT_WRITEFUNCTION, write);
    if (result == CURLE_OK) result = api.easy_setopt(easy, CURLOPT_WRITEDATA, context);
    return result;
}

CURLcode cp_curl_set_prereq(CURL *easy, curl_prereq_callback prereq, void *context) {
    CURLcode result = api.easy_setopt(easy, CURLOPT_PREREQFUNCTION, prereq);
    if (result == CURLE_OK) result = api.easy_setopt(easy, CURLOPT_PREREQDATA, context);
    return result;
}

CURLcode cp_curl_get_long(CURL *easy, CURLINFO info, long *value) { return api.easy_getinfo(easy, info, value); }
CURLcode cp_curl_get_offset(CURL *easy, CURLINFO info, curl_off_t *value) { return api.easy_getinfo(easy, info, value); }
CURLcode cp_curl_unpause(CURL *easy) { return api.easy_pause(easy, CURLPAUSE_CONT); }
CURLcode cp_curl_message_result(const CURLMsg *message) { return message->data.result; }
