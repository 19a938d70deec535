#include "curl_shim.h"

CURLcode cp_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

CURLcode cp_curl_set_long(CURL *easy, CURLoption option, long value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode cp_curl_set_offset(CURL *easy, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode cp_curl_set_string(CURL *easy, CURLoption option, const char *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode cp_curl_set_pointer(CURL *easy, CURLoption option, void *value) {
    return curl_easy_setopt(easy, option, value);
}

CURLcode cp_curl_set_callbacks(CURL *easy, cp_curl_data_callback header, cp_curl_data_callback write, void *context) {
    CURLcode result = curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, header);
    if (result == CURLE_OK) result = curl_easy_setopt(easy, CURLOPT_HEADERDATA, context);
    if (result == CURLE_OK) result = curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, write);
    if (result == CURLE_OK) result = curl_easy_setopt(easy, CURLOPT_WRITEDATA, context);
    return result;
}

CURLcode cp_curl_set_prereq(CURL *easy, curl_prereq_callback prereq, void *context) {
    CURLcode result = curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, prereq);
    if (result == CURLE_OK) result = curl_easy_setopt(easy, CURLOPT_PREREQDATA, context);
    return result;
}

CURLcode cp_curl_get_long(CURL *easy, CURLINFO info, long *value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLcode cp_curl_get_offset(CURL *easy, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(easy, info, value);
}

CURLcode cp_curl_unpause(CURL *easy) {
    return curl_easy_pause(easy, CURLPAUSE_CONT);
}

CURLcode cp_curl_message_result(const CURLMsg *message) {
    return message->data.result;
}
