#!/usr/bin/python3
# A client of net.hadess.SensorProxy built on Gio's GDBusProxy, the D-Bus client GNOME's
# own sensor users are built on. The tests drive it through stdin, one command per line:
#   claim SENSOR | release SENSOR    call ClaimSENSOR / ReleaseSENSOR and print the outcome
#   flood SENSOR N                   N claims and N releases of SENSOR, 64 at a time; prints
#                                    how many were answered, how many with an error, and
#                                    the errors
#   get PROPERTY                     Get through org.freedesktop.DBus.Properties
#   call MEMBER SIGNATURE ARG        a raw call, for wrong signatures and unknown methods
#   quit
# and prints, one line each: "ready NAME" once connected (NAME: its unique name), "changed
# Name=value ..." for every PropertiesChanged of the main object and of the compass object
# (only the properties it carries, in name order), and "reply ..." or "error NAME" for each
# command. `get` of HasCompass or CompassHeading asks the compass object.
# The bus is the one DBUS_SYSTEM_BUS_ADDRESS names.
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib

NAME = "net.hadess.SensorProxy"
PATH = "/net/hadess/SensorProxy"


def say(text):
    print(text, flush=True)


def value_text(value):
    unpacked = value.unpack()
    if isinstance(unpacked, bool):
        return "true" if unpacked else "false"
    return str(unpacked)


bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
loop = GLib.MainLoop()


def on_signal(connection, sender, path, interface, member, parameters):
    changed_interface, changed, _invalidated = parameters.unpack()
    if changed_interface not in (NAME, NAME + ".Compass"):
        return
    values = parameters.get_child_value(1)
    items = []
    for index in range(values.n_children()):
        entry = values.get_child_value(index)
        items.append(
            entry.get_child_value(0).get_string()
            + "="
            + value_text(entry.get_child_value(1).get_variant())
        )
    say("changed " + " ".join(sorted(items)))


for signal_path in (PATH, PATH + "/Compass"):
    bus.signal_subscribe(
        NAME, "org.freedesktop.DBus.Properties", "PropertiesChanged", signal_path, None,
        Gio.DBusSignalFlags.NONE, on_signal)


def interface_of(member):
    return NAME + ".Compass" if member.endswith("Compass") else NAME


def path_of(member):
    return PATH + "/Compass" if member.endswith("Compass") else PATH


def call(member, parameters, interface=None, path=None, done=None):
    def finished(connection, result):
        try:
            reply = connection.call_finish(result)
            text = "reply " + member + (" " + value_text(reply.get_child_value(0)) if reply.n_children() else "")
            ok = True
        except GLib.Error as error:
            text = "error " + (Gio.DBusError.get_remote_error(error) or error.message)
            ok = False
        if done:
            done(ok, text)
        else:
            say(text)

    bus.call(
        NAME, path or path_of(member), interface or interface_of(member), member, parameters,
        None, Gio.DBusCallFlags.NONE, 5000, None, finished)


def flood(sensor, count):
    # At most 64 calls wait for their replies at once: the bus daemon refuses a client more
    # than its limit of pending replies (128 by default) itself, before orientd sees them.
    calls = ["Claim" + sensor, "Release" + sensor] * count
    answered = [0, 0]
    errors = set()

    def done(ok, text):
        answered[0] += 1
        if not ok:
            answered[1] += 1
            errors.add(text)
        if calls:
            call(calls.pop(), None, done=done)
        elif answered[0] == 2 * count:
            say("flooded %d answered, %d errors %s" % (answered[0], answered[1], " ".join(sorted(errors))))

    for _ in range(min(64, len(calls))):
        call(calls.pop(), None, done=done)


def on_input(channel, condition):
    line = sys.stdin.readline()
    if not line:
        loop.quit()
        return False
    words = line.split()
    if not words:
        return True
    command = words[0]
    if command == "quit":
        loop.quit()
        return False
    if command in ("claim", "release"):
        call(command.capitalize() + words[1], None)
    elif command == "flood":
        flood(words[1], int(words[2]))
    elif command == "get":
        compass = words[1] in ("HasCompass", "CompassHeading")
        call("Get", GLib.Variant("(ss)", (NAME + (".Compass" if compass else ""), words[1])),
             interface="org.freedesktop.DBus.Properties", path=PATH + ("/Compass" if compass else ""))
    elif command == "call":
        parameters = GLib.Variant("(" + words[2] + ")", (words[3],)) if len(words) > 3 else None
        call(words[1], parameters)
    return True


GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.PRIORITY_DEFAULT,
                  GLib.IOCondition.IN | GLib.IOCondition.HUP, on_input)
# signal_subscribe sends its AddMatch without waiting. A call answered by the bus, sent after
# it on the same connection, is answered only once the bus has handled the AddMatch: after
# "ready", no signal another client causes can be missed.
bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId",
              None, None, Gio.DBusCallFlags.NONE, -1, None)
say("ready " + bus.get_unique_name())
loop.run()
