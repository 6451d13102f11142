#!/usr/bin/env python3
"""gps-paths-check.py CAPTURE.nmea [RATE...]: one NMEA capture measured along every path a
fix takes into workoutd, side by side: through the real gpsd (../shared/tools/gpsd-replay, at
each RATE x real time, default 10), through the NMEA TCP feed (nmea-feeder, 10x), through the
feed socket (`workoutctl simulate --speed 0`), imported as the NMEA file, and imported as a GPX
track of the same positions (written by this script). Prints distance, max speed, accepted and
recorded fixes per path and each distance's difference from the positions' own geodesic length
(geographiclib). BIN: the binaries (default .build/debug). Each path runs in a fresh daemon
with an empty history in its own temp dir. Needs gpsd (apt-get install gpsd), geographiclib.
"""
import json, os, shutil, subprocess, sys, tempfile, time
from geographiclib.geodesic import Geodesic

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get('BIN', os.path.join(ROOT, '.build', 'debug'))
TOOLS = os.path.join(os.path.dirname(ROOT), 'shared', 'tools')


def positions(path):
    out = []
    for line in open(path, encoding='latin-1'):
        f = line.strip().split(',')
        if f[0].endswith('GGA') and len(f) > 6 and f[2] and f[6] != '0':
            lat = int(f[2][:2]) + float(f[2][2:]) / 60
            lon = int(f[4][:3]) + float(f[4][3:]) / 60
            out.append((f[1], -lat if f[3] == 'S' else lat, -lon if f[5] == 'W' else lon))
    return out


def write_gpx(nmea, pts, dest):
    dates = [l.split(',')[9] for l in open(nmea, encoding='latin-1') if l.split(',')[0].endswith('RMC')]
    d = dates[0]
    with open(dest, 'w') as g:
        g.write('<?xml version="1.0"?>\n<gpx version="1.1" creator="gps-paths-check" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n')
        for t, la, lo in pts:
            g.write('<trkpt lat="%.7f" lon="%.7f"><time>20%s-%s-%sT%s:%s:%sZ</time></trkpt>\n' % (la, lo, d[4:6], d[2:4], d[0:2], t[0:2], t[2:4], t[4:]))
        g.write('</trkseg></trk></gpx>\n')


class Daemon:
    def __init__(self, config=None):
        self.home = tempfile.mkdtemp(prefix='gpc.', dir='/tmp')
        self.env = dict(os.environ, HOME=self.home, XDG_RUNTIME_DIR=self.home + '/run', XDG_DATA_HOME=self.home + '/data',
                        XDG_STATE_HOME=self.home + '/state', XDG_CONFIG_HOME=self.home + '/config')
        os.makedirs(self.home + '/run', mode=0o700)
        os.makedirs(self.home + '/config/workoutd')
        with open(self.home + '/config/workoutd/config.json', 'w') as c:
            json.dump(config or {}, c)
        self.proc = subprocess.Popen([os.path.join(BIN, 'workoutd')], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(2000):
            if os.path.exists(self.home + '/run/workoutd/control.sock'):
                break
            time.sleep(0.005)

    def ctl(self, *args):
        r = subprocess.run([os.path.join(BIN, 'workoutctl'), '--json', *args], env=self.env, capture_output=True, text=True)
        return json.loads(r.stdout) if r.stdout.strip() else {}

    def record_until_quiet(self, quiet):
        self.ctl('start', 'running')
        last, since = -1, time.time()
        while True:
            time.sleep(0.5)
            n = (self.ctl('status').get('workout') or {}).get('pointCount', 0)
            if n != last:
                last, since = n, time.time()
            elif n > 0 and time.time() - since > quiet:
                break
        return self.ctl('stop').get('workout') or {}

    def close(self):
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.home, ignore_errors=True)


def main():
    capture = os.path.abspath(sys.argv[1])
    rates = [float(r) for r in sys.argv[2:]] or [10.0]
    pts = positions(capture)
    g = Geodesic.WGS84
    truth = sum(g.Inverse(a[1], a[2], b[1], b[2])['s12'] for a, b in zip(pts, pts[1:]))
    print('positions: %d fixes, %.1f m (geodesic)\n' % (len(pts), truth))
    print('| path | distance | vs positions | max speed | moving | accepted / recorded |')
    print('|---|---|---|---|---|---|', flush=True)

    class Rows(list):
        """Each row printed as soon as it is measured (a 1x gpsd replay takes the capture's length)."""
        def append(self, row):
            label, w = row
            dist = w.get('distanceMeters', 0.0)
            print('| %s | %.1f m | %+.2f %% | %.1f km/h | %s s | %s / %s |' % (label, dist, 100 * (dist - truth) / truth, w.get('maxSpeed', 0) * 3.6,
                                                                      round(w.get('movingSeconds', 0)), w.get('acceptedCount'), w.get('pointCount')), flush=True)
    rows = Rows()
    for rate in rates:
        state = tempfile.mkdtemp(prefix='gpr.', dir='/tmp')
        subprocess.run([os.path.join(TOOLS, 'gpsd-replay'), 'start', capture, '--port', '2981', '--feed-port', '10181',
                        '--rate', str(rate), '--state', state], check=True, capture_output=True)
        d = Daemon({'feeds': [{'kind': 'gpsd', 'address': '127.0.0.1:2981'}]})
        try:
            rows.append(('gpsd %gx' % rate, d.record_until_quiet(max(3.0, 3 / rate * 10))))
        finally:
            d.close()
            subprocess.run([os.path.join(TOOLS, 'gpsd-replay'), 'stop', '--state', state], capture_output=True)
    feeder = subprocess.Popen([sys.executable, os.path.join(TOOLS, 'nmea-feeder.py'), capture, '10182', '--rate', '10', '--once'],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    d = Daemon({'feeds': [{'kind': 'nmea', 'address': '127.0.0.1:10182'}]})
    try:
        rows.append(('NMEA TCP feed 10x', d.record_until_quiet(3)))
    finally:
        d.close()
        feeder.terminate()
        feeder.wait()
    d = Daemon()
    try:
        d.ctl('start', 'running')
        subprocess.run([os.path.join(BIN, 'workoutctl'), 'simulate', capture, '--speed', '0'], env=d.env, capture_output=True)
        rows.append(('feed socket (simulate)', d.ctl('stop').get('workout') or {}))
        for label, path in (('import NMEA', capture), ('import GPX', None)):
            if path is None:
                path = d.home + '/run.gpx'
                write_gpx(capture, pts, path)
            res = d.ctl('import', path, '--activity', 'running')['results'][0]
            shown = d.ctl('show', res['id']) if res.get('id') else {}
            rows.append((label, shown.get('workout', shown)))
    finally:
        d.close()


if __name__ == '__main__':
    main()
