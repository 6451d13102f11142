#!/usr/bin/python3
"""Writes the dbus fuzz target's seed corpus into DIR: D-Bus messages marshalled by GLib's own
encoder (Gio.DBusMessage.to_blob, an implementation independent of ours), both byte orders,
shaped like what workoutd receives (bus replies, logind, BlueZ, notifications), plus streams
of several messages. Generated at run time, never stored. Usage: dbus-seeds.py DIR"""
import os
import sys
from gi.repository import Gio, GLib

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
V = GLib.Variant


def call(dest, path, iface, member, body=None):
    m = Gio.DBusMessage.new_method_call(dest, path, iface, member)
    if body is not None:
        m.set_body(body)
    return m


def signal(path, iface, member, body):
    m = Gio.DBusMessage.new_signal(path, iface, member)
    m.set_body(body)
    return m


hello = call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello")
hello.set_serial(1)
reply = Gio.DBusMessage.new_method_reply(hello)
reply.set_body(V("(s)", (":1.42",)))
names = Gio.DBusMessage.new_method_reply(hello)
names.set_body(V("(as)", (["org.freedesktop.DBus", ":1.42", "org.bluez"],)))
err = Gio.DBusMessage.new_method_error_literal(hello, "org.freedesktop.DBus.Error.AccessDenied", "Access denied")
inhibit = call("org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "Inhibit",
               V("(ssss)", ("sleep", "workoutd", "recording a workout", "delay")))
sleep = signal("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", V("(b)", (True,)))
changed = signal("/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a/char000b", "org.freedesktop.DBus.Properties",
                 "PropertiesChanged", V("(sa{sv}as)", ("org.bluez.GattCharacteristic1",
                                                        {"Value": V("ay", bytes([0x16, 90, 0x00, 0x04]))}, [])))
managed = Gio.DBusMessage.new_method_reply(hello)
managed.set_body(V("(a{oa{sa{sv}}})", ({
    "/org/bluez/hci0": {"org.bluez.Adapter1": {"Powered": V("b", True), "Address": V("s", "00:AA:01:00:00:23")}},
    "/org/bluez/hci0/dev_C0_FF_EE_00_00_01": {"org.bluez.Device1": {
        "RSSI": V("n", -60), "UUIDs": V("as", ["0000180d-0000-1000-8000-00805f9b34fb"]),
        "Appearance": V("q", 0x0341), "Connected": V("b", False)}},
},)))
notify = call("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "Notify",
              V("(susssasa{sv}i)", ("workoutd", 3, "", "Streak at risk", "1 run left this week", [],
                                    {"urgency": V("y", 1), "x": V("(xtd)", (-1, 2**64 - 1, 2.5))}, -1)))
numbers = signal("/a", "com.example.T", "Numbers", V("(ybnqiuxtdgv)", (255, True, -2, 65535, -7, 7, -2**63, 2**64 - 1,
                                                                        -0.5, "a{sv}", V("v", V("s", "deep")))))
messages = [hello, reply, names, err, inhibit, sleep, changed, managed, notify, numbers]

n = 0
for order in (Gio.DBusMessageByteOrder.LITTLE_ENDIAN, Gio.DBusMessageByteOrder.BIG_ENDIAN):
    stream = b""
    for i, m in enumerate(messages):
        m = m.copy()
        m.set_serial(i + 7)
        m.set_byte_order(order)
        blob = m.to_blob(Gio.DBusCapabilityFlags.UNIX_FD_PASSING)
        stream += blob
        # The harness's first byte chooses a split point: 0 = whole.
        with open(os.path.join(out, "msg%02d" % n), "wb") as f:
            f.write(b"\0" + blob)
        n += 1
    with open(os.path.join(out, "stream%02d" % n), "wb") as f:
        f.write(bytes([len(stream) // 3 % 256]) + stream)
    n += 1
print(n)
