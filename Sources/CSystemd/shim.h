// sd-bus from libsystemd, for OrientBus: the D-Bus connection driven by orientd's own loop.
#include <systemd/sd-bus.h>
