#!/usr/bin/env python3
"""Where the event loop's time went while it was not running (issue 43).

    perf sched record -a -o sched.data -- sleep 25      # while `workoutbench import-load` runs
    perf script -i sched.data > sched.txt
    scripts/loop-waits.py sched.txt LOOP_TID [FROM TO]  # FROM/TO: the import's window (perf time)

LOOP_TID is workoutd's main thread (its pid). For each wake-up of the loop: the delay from
sched_waking to its switch-in, and who ran on that CPU meanwhile (the daemon's other threads,
or other processes); percentiles before, during and after the window. Then the loop's time off
the CPU by the state it left in (R: preempted, S: sleeping, D: blocked on I/O) and its run time
per switch-in. Threads of the daemon are those whose comm the daemon gave them (`workoutd`).
"""
import re
import sys

path, loop = sys.argv[1], int(sys.argv[2])
window = (float(sys.argv[3]), float(sys.argv[4])) if len(sys.argv) > 4 else (float('-inf'), float('inf'))
event = re.compile(r'^\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+sched:(\w+):\s+(.*)$')
switch = re.compile(r'prev_comm=(.*) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*) next_pid=(\d+) ')
running = {}        # cpu -> (tid, comm, since)
woke = None         # when the loop was woken, and who ran on each CPU since: {(cpu, own): s}
waits, offcpu, runs = [], [], []
left = None         # (time, state) the loop left the CPU
came = None
for line in open(path):
    m = event.match(line)
    if not m:
        continue
    cpu, t, name, rest = int(m.group(3)), float(m.group(4)), m.group(5), m.group(6)
    if name == 'sched_waking':
        if re.search(r'\bpid=%d\b' % loop, rest) and woke is None:
            woke = (t, {})
        continue
    if name != 'sched_switch':
        continue
    s = switch.search(rest + ' ')
    if not s:
        continue
    prev, state, nxt, ncomm = int(s.group(2)), s.group(3), int(s.group(5)), s.group(4)
    if woke and cpu in running:
        tid, comm, since = running[cpu]
        span = t - max(since, woke[0])
        if span > 0 and tid != loop:
            key = (cpu, 'own' if comm == 'workoutd' else 'idle' if tid == 0 else 'other')
            woke[1][key] = woke[1].get(key, 0) + span
    running[cpu] = (nxt, ncomm, t)
    if prev == loop:
        left = (t, state)
        if came is not None:
            runs.append((came, t - came))
            came = None
    if nxt == loop:
        came = t
        if left:
            offcpu.append((left[0], left[1], t - left[0]))
        if woke:
            w = woke[1]
            waits.append((woke[0], t - woke[0], w.get((cpu, 'own'), 0), w.get((cpu, 'other'), 0)))
            woke = None


def pct(xs):
    xs = sorted(xs)
    if not xs:
        return 'n=0'
    q = lambda p: xs[min(len(xs) - 1, int(p * len(xs)))] * 1e3
    return 'n=%d p50 %.2f p90 %.2f p99 %.2f max %.2f ms' % (len(xs), q(.5), q(.9), q(.99), xs[-1] * 1e3)


inside = lambda t: window[0] <= t <= window[1]
print('wake-up to running, before the window:', pct([d for t, d, _, _ in waits if t < window[0]]))
print('wake-up to running, in the window:    ', pct([d for t, d, _, _ in waits if inside(t)]))
print('wake-up to running, after the window: ', pct([d for t, d, _, _ in waits if t > window[1]]))
slow = [w for w in waits if inside(w[0]) and w[1] > 0.005]
if slow:
    total = sum(w[1] for w in slow)
    print('waits over 5 ms in the window: %d; meanwhile on that CPU the daemon\'s other threads ran %.0f %%, '
          'other processes %.0f %%' % (len(slow), 100 * sum(w[2] for w in slow) / total, 100 * sum(w[3] for w in slow) / total))
for state in ('R', 'R+', 'S', 'D'):
    xs = [d for t, s, d in offcpu if s == state and inside(t)]
    if xs:
        print('off the CPU after leaving in state %-2s (window): %s' % (state, pct(xs)))
print('run time per switch-in (window):', pct([d for t, d in runs if inside(t)]),
      '; total %.1f ms' % (1e3 * sum(d for t, d in runs if inside(t))))
