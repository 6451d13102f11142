#!/usr/bin/env python3
"""retime-nmea.py LOG SECONDS [DAYS] > OUT: a continuous NMEA log from a real capture's opening run.

Takes the GGA/RMC sentences of LOG's first uninterrupted stretch of epochs (until the first gap
of more than 1 s; nmea-rtk: 5 s of 10 Hz fixes from a Trimble receiver) and repeats it, each
copy moved forward in time by the stretch's length, until SECONDS are covered; times, RMC dates
and checksums are rewritten, everything else is the receiver's. Used by scripts/bench.sh to feed
gpsd a 10 Hz receiver for a minute; the output lives in the bench's temp dir only. DAYS (default
0) moves the whole log that many days later: copies that are different recordings (imports).
With PINGPONG=1 in the environment every other copy runs the stretch backwards, so a moving
capture (bundg_zeus_9) becomes a continuous track out and back instead of jumping to its start.
"""
import os
import datetime
import sys


def hms(t):
    return datetime.datetime.strptime(t.split('.')[0], '%H%M%S').replace(tzinfo=datetime.timezone.utc), \
        float('0.' + t.split('.')[1]) if '.' in t else 0.0


def main():
    log, seconds = sys.argv[1], float(sys.argv[2])
    days = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    epochs, last = [], None  # [(seconds of day, [fields...])]
    for line in open(log, encoding='latin-1'):
        line = line.strip()
        if not line.startswith('$') or '*' not in line:
            continue
        fields = line[1:line.index('*')].split(',')
        if fields[0][2:] not in ('GGA', 'RMC') or not fields[1]:
            continue
        base, frac = hms(fields[1])
        t = base.hour * 3600 + base.minute * 60 + base.second + frac
        if last is not None and t - last > 1.0:
            break
        if last is None or t != last:
            epochs.append((t, []))
        epochs[-1][1].append(fields)
        last = t
    if len(epochs) < 2:
        sys.exit('retime-nmea: no run of epochs in %s' % log)
    step = epochs[1][0] - epochs[0][0]
    span = epochs[-1][0] - epochs[0][0] + step
    start = datetime.datetime(2020, 3, 18, tzinfo=datetime.timezone.utc) + datetime.timedelta(days=days, seconds=epochs[0][0])
    # A sentence's checksum is the XOR of its body's characters: that of the body with the time
    # (and an RMC's date) left empty, found once per sentence of the stretch, then of the new
    # fields, found once per epoch (not a pass over every character of every line written).
    def xor(text):
        c = 0
        for ch in text:
            c ^= ord(ch)
        return c

    def template(f):
        f = list(f)
        f[1] = ''
        if f[0][2:] == 'RMC':
            f[9] = ''
        rest = xor(','.join(f))
        # The line with the new time (and date) put in by %: '$BODY*' with the fields as slots.
        f = [x.replace('%', '%%') for x in f]
        f[1] = '%(time)s'
        if f[0][2:] == 'RMC':
            f[9] = '%(date)s'
        return '$' + ','.join(f) + '*', f[0][2:] == 'RMC', rest

    prepared = [[template(f) for f in sentences] for _, sentences in epochs]
    out, copy = [], 0
    pingpong = os.environ.get('PINGPONG') == '1'
    while copy * span < seconds:
        for k, (t, _) in enumerate(epochs):
            when = start + datetime.timedelta(seconds=copy * span + (t - epochs[0][0]))
            sentences = prepared[k]
            if pingpong and copy % 2 == 1:
                sentences = prepared[len(epochs) - 1 - k]
            time = when.strftime('%H%M%S') + '.%02d' % round(when.microsecond / 10000)
            date = when.strftime('%d%m%y')
            time_xor, date_xor = xor(time), xor(date)
            fields = {'time': time, 'date': date}
            for line, rmc, rest in sentences:
                out.append(line % fields + '%02X\r\n' % (rest ^ time_xor ^ (date_xor if rmc else 0)))
        copy += 1
    sys.stdout.write(''.join(out))


main()
