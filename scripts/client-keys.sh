#!/usr/bin/env bash
# Raw string keys in workoutctl's sources (issue 42, "the protocol typed once"): every `["key"]`
# subscript with a literal key in Sources/WorkoutClient, counted as the commit messages count
# them (reads of replies and the few objects the client builds itself alike). Replies are read
# with the core's types (Sources/WorkoutCore/Codecs/Control); what is left is listed per file.
#
#   scripts/client-keys.sh          the total, then the count per file
#   scripts/client-keys.sh -v       also every line
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='\["[a-zA-Z_]+"\]'
echo "raw string keys in Sources/WorkoutClient: $(grep -rohE "$pattern" Sources/WorkoutClient | wc -l)"
echo "lines with one, per file:"
grep -rcE "$pattern" Sources/WorkoutClient | grep -v ':0$' | sort -t: -k2 -rn | sed 's/^/  /'
if [ "${1:-}" = "-v" ]; then grep -rnE "$pattern" Sources/WorkoutClient; fi
