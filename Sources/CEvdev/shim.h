// libevdev, for OrientInput: reading input switches (SW_TABLET_MODE, SW_LID) and creating
// a virtual switch through uinput. Nothing here but the headers.
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
