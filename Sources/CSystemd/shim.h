// sd-bus from libsystemd, for OrientBus: the D-Bus connection driven by orientd's own loop.
#include <systemd/sd-bus.h>
// sd-login and sd_booted, for OrientBus's `LoginSeats`: who sits at a seat, for control.
#include <systemd/sd-daemon.h>
#include <systemd/sd-login.h>

// sd-bus describes an exported interface as an array of sd_bus_vtable entries, made with
// macros (bit fields and a union) that Swift cannot use. These fill one entry each; which
// entries an object has is decided in Swift.

static inline void orient_bus_vtable_start(sd_bus_vtable *entry) {
  const sd_bus_vtable value = SD_BUS_VTABLE_START(0);
  *entry = value;
}

// A method callable by any client (without SD_BUS_VTABLE_UNPRIVILEGED sd-bus would demand
// CAP_SYS_ADMIN from callers on the system bus).
static inline void orient_bus_vtable_method(
    sd_bus_vtable *entry, const char *member, const char *signature, const char *result,
    sd_bus_message_handler_t handler) {
  const sd_bus_vtable value =
      SD_BUS_METHOD(member, signature, result, handler, SD_BUS_VTABLE_UNPRIVILEGED);
  *entry = value;
}

// A read-only property whose changes are announced with PropertiesChanged, values included.
// sd-bus hands its getter the object's userdata plus `offset`.
static inline void orient_bus_vtable_property(
    sd_bus_vtable *entry, const char *member, const char *signature, sd_bus_property_get_t getter,
    size_t offset) {
  const sd_bus_vtable value =
      SD_BUS_PROPERTY(member, signature, getter, offset, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE);
  *entry = value;
}

static inline void orient_bus_vtable_end(sd_bus_vtable *entry) {
  const sd_bus_vtable value = SD_BUS_VTABLE_END;
  *entry = value;
}
