#include "sdbus_shim.h"
#include <string.h>

/* Entries start all-zero (sd-bus-vtable.h asks for it: unused union bytes must be zero), then
   take the fields of their kind. */

sd_bus_vtable cp_vtable_start(uint64_t flags) {
    sd_bus_vtable entry[] = { SD_BUS_VTABLE_START(flags) };
    return entry[0];
}

sd_bus_vtable cp_vtable_end(void) {
    sd_bus_vtable entry[] = { SD_BUS_VTABLE_END };
    return entry[0];
}

sd_bus_vtable cp_vtable_method(const char *member, const char *signature, const char *result,
                               const char *names, sd_bus_message_handler_t handler, uint64_t flags) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_METHOD;
    entry.flags = flags;
    entry.x.method.member = member;
    entry.x.method.signature = signature;
    entry.x.method.result = result;
    entry.x.method.handler = handler;
    entry.x.method.names = names;
    return entry;
}

static sd_bus_vtable property(int type, const char *member, const char *signature, sd_bus_property_get_t get,
                              sd_bus_property_set_t set, uint64_t flags) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = type;
    entry.flags = flags;
    entry.x.property.member = member;
    entry.x.property.signature = signature;
    entry.x.property.get = get;
    entry.x.property.set = set;
    return entry;
}

sd_bus_vtable cp_vtable_property(const char *member, const char *signature, sd_bus_property_get_t get,
                                 uint64_t flags) {
    return property(_SD_BUS_VTABLE_PROPERTY, member, signature, get, NULL, flags);
}

sd_bus_vtable cp_vtable_writable_property(const char *member, const char *signature, sd_bus_property_get_t get,
                                          sd_bus_property_set_t set, uint64_t flags) {
    return property(_SD_BUS_VTABLE_WRITABLE_PROPERTY, member, signature, get, set, flags);
}

sd_bus_vtable cp_vtable_signal(const char *member, const char *signature, const char *names, uint64_t flags) {
    sd_bus_vtable entry;
    memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_SIGNAL;
    entry.flags = flags;
    entry.x.signal.member = member;
    entry.x.signal.signature = signature;
    entry.x.signal.names = names;
    return entry;
}
