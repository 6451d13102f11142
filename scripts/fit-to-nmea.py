#!/usr/bin/env python3
"""fit-to-nmea.py FIT [N] > OUT.nmea: the first N (default all) positioned records of a FIT
activity as a 1 Hz NMEA 0183 capture (GGA + RMC per record: time, position, altitude, the
record's speed as RMC speed over ground, course from the previous position, HDOP 0.9, 9
satellites), for replaying a real watch track through gpsd (../shared/tools/gpsd-replay),
through the NMEA feed and as a file. Needs garmin-fit-sdk (pip install garmin-fit-sdk).
"""
import math, sys
from garmin_fit_sdk import Decoder, Stream


def checksum(body):
    c = 0
    for ch in body:
        c ^= ord(ch)
    return '%02X' % c


def coord(v, pos, neg, width):
    h = pos if v >= 0 else neg
    v = abs(v)
    d = int(v)
    return '%0*d%07.4f' % (width, d, (v - d) * 60), h


def main():
    msgs, errors = Decoder(Stream.from_file(sys.argv[1])).read()
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    k = 1 / 2 ** 31 * 180
    recs = [r for r in msgs['record_mesgs'] if 'position_lat' in r and 'position_long' in r]
    prev = None
    for r in recs[:limit]:
        t = r['timestamp']
        lat, lon = r['position_lat'] * k, r['position_long'] * k
        alt = r.get('enhanced_altitude', r.get('altitude', 0.0)) or 0.0
        speed = r.get('enhanced_speed', r.get('speed', 0.0)) or 0.0
        course = 0.0
        if prev:
            y = math.sin(math.radians(lon - prev[1])) * math.cos(math.radians(lat))
            x = math.cos(math.radians(prev[0])) * math.sin(math.radians(lat)) - \
                math.sin(math.radians(prev[0])) * math.cos(math.radians(lat)) * math.cos(math.radians(lon - prev[1]))
            course = (math.degrees(math.atan2(y, x)) + 360) % 360
        prev = (lat, lon)
        hms = t.strftime('%H%M%S') + '.00'
        la, lh = coord(lat, 'N', 'S', 2)
        lo, loh = coord(lon, 'E', 'W', 3)
        gga = 'GPGGA,%s,%s,%s,%s,%s,1,09,0.9,%.1f,M,47.0,M,,' % (hms, la, lh, lo, loh, alt)
        rmc = 'GPRMC,%s,A,%s,%s,%s,%s,%.2f,%.1f,%s,,,A' % (hms, la, lh, lo, loh, speed / 0.514444, course, t.strftime('%d%m%y'))
        for s in (gga, rmc):
            sys.stdout.write('$%s*%s\r\n' % (s, checksum(s)))


if __name__ == '__main__':
    main()
