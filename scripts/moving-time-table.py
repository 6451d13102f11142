#!/usr/bin/env python3
"""moving-time-table.py [FILE...]: workoutd's moving time of every shared GPX/TCX track against
gpxpy's get_moving_data(), as the Markdown table of docs/metrics.md.

Starts a fresh daemon (BIN: the binaries, default .build/debug) with an empty history in a temp
dir, imports each file (default: ../shared/data/gpx/*.gpx and tcx/*.tcx beside the repository)
with `workoutctl --json import`, reads `show`, and compares with gpxpy (pip install gpxpy
geographiclib), twice: gpxpy's default (a step slower than 1 km/h is stopped) and gpxpy with
the workout activity's auto-pause speed as its threshold (like with like: the rule workoutd
applies). TCX files are read into gpxpy's model by this script (positions and times of their
Trackpoints, one segment per Track). Columns: elapsed, moving (workoutd), the two references
and the difference from each, the longest stop in the file (the longest run of steps gpxpy calls
stopped, gaps included), and whether workoutd's moving time differs from elapsed when that stop
is over 60 s. Exit status 1 when a file is more than 5 % from both references or reads
moving = elapsed with a stop over 60 s.
"""
import datetime, glob, json, os, shutil, subprocess, sys, tempfile, time
import xml.etree.ElementTree as ET
import gpxpy, gpxpy.gpx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get('BIN', os.path.join(ROOT, '.build', 'debug'))
SHARED = os.path.join(os.path.dirname(ROOT), 'shared', 'data')
# The activities' auto-pause speeds (m/s), as Sources/WorkoutCore/Activity/ActivityType+Properties.swift.
AUTO_PAUSE = {'running': 0.5, 'trail_running': 0.4, 'walking': 0.3, 'hiking': 0.25, 'cycling': 1.0, 'mountain_biking': 0.7}


def tcx_gpx(path):
    local = lambda tag: tag.split('}')[-1]
    g = gpxpy.gpx.GPX()
    trk = gpxpy.gpx.GPXTrack()
    g.tracks.append(trk)
    for el in ET.parse(path).getroot().iter():
        if local(el.tag) != 'Track':
            continue
        seg = gpxpy.gpx.GPXTrackSegment()
        trk.segments.append(seg)
        for tp in el:
            d = {local(c.tag): c for c in tp}
            if 'Position' not in d or 'Time' not in d:
                continue
            pos = {local(c.tag): c.text for c in d['Position']}
            t = datetime.datetime.fromisoformat(d['Time'].text.strip().replace('Z', '+00:00'))
            ele = float(d['AltitudeMeters'].text) if 'AltitudeMeters' in d else None
            seg.points.append(gpxpy.gpx.GPXTrackPoint(float(pos['LatitudeDegrees']), float(pos['LongitudeDegrees']), elevation=ele, time=t))
    return g


def longest_stop(g, kmh):
    best = 0.0
    for trk in g.tracks:
        for seg in trk.segments:
            run = 0.0
            for a, b in zip(seg.points, seg.points[1:]):
                if not (a.time and b.time):
                    continue
                dt = (b.time - a.time).total_seconds()
                d = b.distance_2d(a) or 0.0
                if dt > 0 and d / dt * 3.6 <= kmh:
                    run += dt
                    best = max(best, run)
                else:
                    run = 0.0
    return best


def duration(s):
    s = int(round(s))
    return '%d:%02d:%02d' % (s // 3600, s // 60 % 60, s % 60)


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(SHARED, 'gpx', '*.gpx')) + glob.glob(os.path.join(SHARED, 'tcx', '*.tcx')))
    home = tempfile.mkdtemp(prefix='mtt.', dir='/tmp')
    env = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=home + '/run', XDG_DATA_HOME=home + '/data',
               XDG_STATE_HOME=home + '/state', XDG_CONFIG_HOME=home + '/config')
    os.makedirs(home + '/run', mode=0o700)
    daemon = subprocess.Popen([os.path.join(BIN, 'workoutd')], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    failed = False
    try:
        for _ in range(2000):
            if os.path.exists(home + '/run/workoutd/control.sock'):
                break
            time.sleep(0.005)
        ctl = lambda *a: json.loads(subprocess.run([os.path.join(BIN, 'workoutctl'), '--json', *a], env=env,
                                                   capture_output=True, text=True).stdout)
        print('| file | activity | elapsed | moving (workoutd) | gpxpy (1 km/h) | diff | gpxpy (auto-pause speed) | diff | longest stop | ok |')
        print('|---|---|---|---|---|---|---|---|---|---|')
        for f in files:
            res = ctl('import', f)['results'][0]
            if res.get('result') != 'imported':
                print('| %s | %s | | | | | | | | no |' % (os.path.basename(f), res.get('error', res.get('result'))))
                failed = True
                continue
            w = ctl('show', res['id'])
            w = w.get('workout', w)
            act, elapsed, moving = w['activity'], w['elapsedSeconds'], w['movingSeconds']
            g = tcx_gpx(f) if f.endswith('.tcx') else gpxpy.parse(open(f, encoding='utf-8'))
            ref1 = g.get_moving_data().moving_time
            v = AUTO_PAUSE.get(act)
            ref2 = g.get_moving_data(stopped_speed_threshold=v * 3.6).moving_time if v else None
            stop = longest_stop(g, 1.0)
            pct = lambda ref: 100.0 * (moving - ref) / ref if ref else 0.0
            within = abs(pct(ref1)) <= 5 or (ref2 is not None and abs(pct(ref2)) <= 5)
            equal = abs(moving - elapsed) < 1 and stop > 60
            ok = within and not equal
            failed |= not ok
            print('| %s | %s | %s | %s | %s | %+.1f %% | %s | %s | %s | %s |' % (
                os.path.basename(f), act, duration(elapsed), duration(moving), duration(ref1), pct(ref1),
                duration(ref2) if ref2 is not None else '-', ('%+.1f %%' % pct(ref2)) if ref2 is not None else '-',
                duration(stop), 'yes' if ok else 'NO'))
    finally:
        daemon.terminate()
        daemon.wait()
        shutil.rmtree(home, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
