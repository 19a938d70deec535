#include "sdbus_shim.h"

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
    sd_bus_vtable entry[] = { SD_BUS_METHOD(member, signature, result, handler, flags) };
    entry[0].x.method.names = names;
    return entry[0];
}

sd_bus_vtable cp_vtable_property(const char *member, const char *signature, sd_bus_property_get_t get,
                                 uint64_t flags) {
    sd_bus_vtable entry[] = { SD_BUS_PROPERTY(member, signature, get, 0, flags) };
    return entry[0];
}

sd_bus_vtable cp_vtable_writable_property(const char *member, const char *signature, sd_bus_property_get_t get,
                                          sd_bus_property_set_t set, uint64_t flags) {
    sd_bus_vtable entry[] = { SD_BUS_WRITABLE_PROPERTY(member, signature, get, set, 0, flags) };
    return entry[0];
}

sd_bus_vtable cp_vtable_signal(const char *member, const char *signature, const char *names, uint64_t flags) {
    sd_bus_vtable entry[] = { SD_BUS_SIGNAL(member, signature, flags) };
    entry[0].x.signal.names = names;
    return entry[0];
}
