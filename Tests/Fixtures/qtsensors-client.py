#!/usr/bin/python3
# A client of Qt's QtSensors, the library KDE Plasma and Qt applications read sensors with,
# through its iio-sensor-proxy backend (libqtsensors_iio-sensor-proxy, which talks to
# net.hadess.SensorProxy on the system bus that DBUS_SYSTEM_BUS_ADDRESS names).
# Usage: qtsensors-client.py SENSOR...   with SENSOR one of orientation, light, compass.
# For each sensor it prints "backend SENSOR IDENTIFIER" once it is connected to a backend
# (or "error SENSOR none" when Qt finds none), then "SENSOR VALUE" for every reading:
# the orientation as Qt names it (TopUp, LeftUp, ...), the light level in lux, the azimuth
# in degrees. It runs until it is killed.
import sys

from PyQt5.QtCore import QCoreApplication, QTimer
from PyQt5.QtSensors import QCompass, QLightSensor, QOrientationReading, QOrientationSensor

application = QCoreApplication(sys.argv)

ORIENTATIONS = {
    QOrientationReading.Undefined: "Undefined",
    QOrientationReading.TopUp: "TopUp",
    QOrientationReading.TopDown: "TopDown",
    QOrientationReading.LeftUp: "LeftUp",
    QOrientationReading.RightUp: "RightUp",
    QOrientationReading.FaceUp: "FaceUp",
    QOrientationReading.FaceDown: "FaceDown",
}


def say(text):
    print(text, flush=True)


def value_of(name, reading):
    if name == "orientation":
        return ORIENTATIONS.get(reading.orientation(), str(reading.orientation()))
    if name == "light":
        return "%g" % reading.lux()
    return "%g" % reading.azimuth()


sensors = []
for name in sys.argv[1:]:
    sensor = {"orientation": QOrientationSensor, "light": QLightSensor, "compass": QCompass}[name]()

    def changed(name=name, sensor=sensor):
        say("%s %s" % (name, value_of(name, sensor.reading())))

    sensor.readingChanged.connect(changed)
    if not sensor.connectToBackend():
        say("error %s none" % name)
        continue
    say("backend %s %s" % (name, bytes(sensor.identifier()).decode()))
    sensor.start()
    sensors.append(sensor)

# Qt delivers the readings from its event loop; the timer keeps Python's signal handling alive.
timer = QTimer()
timer.timeout.connect(lambda: None)
timer.start(200)
application.exec_()
