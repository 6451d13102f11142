#!/usr/bin/env python3
"""Names the tests a Swift Testing log shows started but never ended (a hang's suspects)."""
import re
import sys

started, ended = [], set()
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"◇ Test (\S+?\(.*?\)) started", line)
    if m:
        started.append(m.group(1))
        continue
    m = re.search(r"Test (\S+?\(.*?\))(?: with \d+ test cases?)? (passed|failed|skipped)", line)
    if m:
        ended.add(m.group(1))
try:
    for name in dict.fromkeys(started):
        if name not in ended:
            print("  never ended:", name)
except BrokenPipeError:
    pass
