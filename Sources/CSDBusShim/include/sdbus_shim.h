#ifndef CLOUDPLAYERD_SDBUS_SHIM_H
#define CLOUDPLAYERD_SDBUS_SHIM_H

#include <systemd/sd-bus.h>

/* Swift cannot expand the SD_BUS_VTABLE_* initializer macros; these build the same entries.
   Every string passed in must outlive the vtable. */
sd_bus_vtable cp_vtable_start(uint64_t flags);
sd_bus_vtable cp_vtable_end(void);
/* `names`: the in-argument names then the out-argument names, each ending in NUL, the whole
   list ending in one more NUL ("Offset\0\0"), as SD_BUS_PARAM builds them. */
sd_bus_vtable cp_vtable_method(const char *member, const char *signature, const char *result,
                               const char *names, sd_bus_message_handler_t handler, uint64_t flags);
sd_bus_vtable cp_vtable_property(const char *member, const char *signature, sd_bus_property_get_t get,
                                 uint64_t flags);
sd_bus_vtable cp_vtable_writable_property(const char *member, const char *signature, sd_bus_property_get_t get,
                                          sd_bus_property_set_t set, uint64_t flags);
sd_bus_vtable cp_vtable_signal(const char *member, const char *signature, const char *names, uint64_t flags);

#endif
