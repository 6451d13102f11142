#!/bin/bash
# .ci/systemd-test.sh: run the real workoutd as a systemd *user* service under systemd 252 (in a
# container booted by ../shared/tools/systemd-rig) and check the unit files in systemd/.
#
# Needs root (the rig uses systemd-nspawn) and a debug build on the host first:
#     swift build && sudo .ci/systemd-test.sh
# Every check prints PASS or FAIL; the script exits 1 if any check failed, 2 if it could not
# run at all. The container is always stopped (trap). Takes about 1 minute (mostly the
# deliberate watchdog wait); `systemd-rig setup` adds about 1 minute the first time.
#
# Environment:
#   SYSTEMD_RIG       path of systemd-rig (default: ../shared/tools/systemd-rig from the repo)
#   SYSTEMD_RIG_NAME  rig instance name (default: workoutd-ci)
#   STATUS_EVENT_RE   journal regex for the periodic status line (default below)
#   STREAK_EVENT_RE   journal regex for a streak line (default below)
set -uo pipefail

cd "$(dirname "$(readlink -f "$0")")/.." || exit 2
REPO=$PWD
R=${SYSTEMD_RIG:-$REPO/../shared/tools/systemd-rig}
export SYSTEMD_RIG_NAME=${SYSTEMD_RIG_NAME:-workoutd-ci}
STATUS_EVENT_RE=${STATUS_EVENT_RE:-'event=workout\.status'}
STREAK_EVENT_RE=${STREAK_EVENT_RE:-'event=streak\.'}
SOCK='$XDG_RUNTIME_DIR/workoutd/control.sock'   # expanded inside the container, as ci

FAILS=0 PASSES=0
pass() { PASSES=$((PASSES + 1)); printf 'PASS  %s\n' "$*"; }
fail() { FAILS=$((FAILS + 1)); printf 'FAIL  %s\n' "$*"; }
info() { printf '      %s\n' "$*"; }
die() { printf 'systemd-test: %s\n' "$*" >&2; exit 2; }

[[ $EUID -eq 0 ]] || die "must run as root (systemd-rig uses systemd-nspawn)"
[[ -x $R ]] || die "systemd-rig not found at $R (set SYSTEMD_RIG)"
for b in workoutd workoutctl; do
  [[ -x .build/debug/$b ]] || die "missing .build/debug/$b: run 'swift build' first"
done
# ci (uid 1000) reads the repository through /src
[[ $(stat -c %A "$REPO") == *r?x ]] || die "$REPO must be readable by others (chmod o+rx)"

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if ((FAILS > 0)); then
    echo "---- last journal lines of workoutd.service ----"
    "$R" journal workoutd.service -n 60 2>/dev/null | grep -v '(sd-pam)' | tail -n 60
  fi
  "$R" stop >/dev/null 2>&1 || true
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

U() { "$R" user "$@"; }                     # as ci, in ci's user manager
sh_u() { "$R" user sh -c "$1"; }            # a shell snippet as ci ($VARS expand inside)
prop() { U systemctl --user show -p "$1" --value "${2:-workoutd.service}"; }
ctl() { U /home/ci/.local/bin/workoutctl "$@"; }
poll() {                                    # SECONDS CMD... : retry every 0.25 s
  local n=$(($1 * 4)); shift
  while ((n-- > 0)); do "$@" && return 0; sleep 0.25; done
  return 1
}
json_get() {                                # PYTHON-EXPRESSION on stdin's JSON as `j`
  python3 -c 'import json,sys
try: j = json.load(sys.stdin)
except Exception: sys.exit(1)
v = eval(sys.argv[1])
print("" if v is None else v)' "$@"
}
workout_id() { ctl --json status | json_get '(j.get("workout") or {}).get("id")'; }
journal_since() { "$R" journal workoutd.service --since "@$1" 2>/dev/null; }
count_since() { journal_since "$1" | grep -cE -- "$2"; }
now() { date +%s; }

# ---- boot --------------------------------------------------------------------------------
"$R" setup || die "systemd-rig setup failed"
"$R" boot || die "systemd-rig boot failed"

sh_u 'mkdir -p ~/.local/bin ~/.config/systemd/user ~/.config/workoutd &&
      install -m755 /src/.build/debug/workoutd /src/.build/debug/workoutctl ~/.local/bin/ &&
      install -m644 /src/systemd/workoutd.service /src/systemd/workoutd.socket ~/.config/systemd/user/ &&
      systemctl --user daemon-reload' || die "cannot install into the container"

# ---- 1. the unit files verify cleanly ------------------------------------------------------
# --man=no: the rig's minimal rootfs has no man(1) to resolve Documentation=man:...
if out=$(U systemd-analyze --user verify --man=no workoutd.service workoutd.socket 2>&1) && [[ -z $out ]]; then
  pass "systemd-analyze --user verify: workoutd.service and workoutd.socket are clean"
else
  fail "systemd-analyze --user verify: ${out:-exit code non-zero}"
fi

# ---- 2. socket activation: the first workoutctl call starts the service --------------------
U systemctl --user start workoutd.socket
if [[ $(prop ActiveState) == inactive ]] && ctl status >/dev/null && [[ $(prop ActiveState) == active ]]; then
  pass "socket activation: with only workoutd.socket started, 'workoutctl status' started workoutd.service"
else
  fail "socket activation: service $(prop ActiveState), socket $(prop ActiveState workoutd.socket)"
fi

sh_u 'systemctl --user stop workoutd.service workoutd.socket'

# ---- 3. start returns only after READY=1 ----------------------------------------------------
# The socket unit is stopped first, so no queued connection can hide a daemon that is not up.
U systemctl --user start workoutd.service
state=$(prop ActiveState) status_text=$(prop StatusText)
if [[ $state == active && -n $status_text ]] && ctl status >/dev/null; then
  pass "readiness: 'systemctl --user start' returned with the service active, StatusText set, workoutctl status answered"
else
  fail "readiness: ActiveState=$state StatusText='$status_text' after start returned"
fi

# ---- 4. STATUS= is shown by systemctl status -------------------------------------------------
if U systemctl --user status --no-pager workoutd.service | grep -E '^ +Status: "' >/dev/null; then
  pass "STATUS=: systemctl --user status shows: $(prop StatusText)"
else
  fail "STATUS=: no Status: line in systemctl --user status"
fi

# ---- 5. a workout, then a reload changes a tunable while it runs --------------------------------
ctl start running >/dev/null || fail "workoutctl start running failed"
WID=$(workout_id)
[[ -n $WID ]] && info "workout in progress: $WID" || fail "no workout id in 'workoutctl --json status'"
t=$(now); sleep 1
base=$(count_since "$t" "$STATUS_EVENT_RE")
sh_u 'printf "{\"statusLogSeconds\": 1}\n" > ~/.config/workoutd/config.json'
t=$(now); sleep 1                    # journal timestamps: compare whole seconds
U systemctl --user reload workoutd.service
# systemd 252 returns from reload before the daemon is done (no notify-reload): poll the journal
if poll 15 eval '(( $(count_since "$t" "$STATUS_EVENT_RE") >= 3 ))'; then
  pass "reload: statusLogSeconds 60 -> 1 took effect during the workout ($(count_since "$t" "$STATUS_EVENT_RE") status lines since the reload, $base in the second before)"
else
  fail "reload: fewer than 3 lines matching /$STATUS_EVENT_RE/ within 15 s after the reload"
fi
[[ $(prop ActiveState) == active ]] || fail "reload: service is $(prop ActiveState) after the reload"

# ---- 6. the watchdog kills a hung main loop; the workout is restored --------------------------------
restarts=$(prop NRestarts)
t=$(now)
# A hung daemon, from outside: SIGSTOP stops its main loop's WATCHDOG=1 pings as a hang would
# (no test command in the product); the watchdog then kills it and systemd restarts it.
U systemctl --user kill --signal=SIGSTOP workoutd.service
if poll 30 eval '(( $(prop NRestarts) > restarts ))' && poll 15 eval '[[ $(prop ActiveState) == active ]]'; then
  if journal_since "$t" | grep -F 'Watchdog timeout' >/dev/null; then
    pass "watchdog: hung main loop killed ('Watchdog timeout' in the journal) and restarted (NRestarts $restarts -> $(prop NRestarts))"
  else
    fail "watchdog: restarted, but not by the watchdog (Result=$(prop Result))"
  fi
else
  fail "watchdog: no restart within 45 s of SIGSTOP (NRestarts=$(prop NRestarts), Result=$(prop Result))"
fi
rid=$(workout_id)
if [[ -n $WID && $rid == "$WID" ]]; then
  pass "restore: after the watchdog restart, status shows workout $rid ($(ctl --json status | json_get 'j["state"]'))"
else
  fail "restore: workout after restart is '${rid}', expected '$WID'"
fi

# ---- 7. restart and stop during a workout keep it for the next start (issue 18) -----------------------
# SIGTERM does not end the workout: it stays in the journal and the next start continues it as it
# was (active stays active); `workoutctl stop` ends it.
ctl resume >/dev/null 2>&1 || true             # the watchdog restore brings it back paused
state0=$(ctl --json status | json_get 'j["state"]')
t=$(now)
U systemctl --user restart workoutd.service
rid=$(workout_id) state1=$(ctl --json status | json_get 'j["state"]')
if [[ -n $WID && $rid == "$WID" && $state1 == "$state0" ]]; then
  pass "restart: 'systemctl --user restart' during the workout keeps it: status shows $rid $state1 after the restart (was $state0)"
else
  fail "restart: after 'systemctl --user restart' status shows '${rid}' '$state1', expected $WID $state0"
fi
if journal_since "$t" | grep -q 'event=workout.kept_for_restart' && journal_since "$t" | grep -q 'event=workout.continued'; then
  pass "restart: the journal says the workout was kept (workout.kept_for_restart) and continued (workout.continued)"
else
  fail "restart: no workout.kept_for_restart / workout.continued lines since the restart"
fi
U systemctl --user stop workoutd.service
result=$(prop Result) code=$(prop ExecMainStatus)
U systemctl --user start workoutd.service       # "after restart"
rid=$(workout_id)
ctl stop >/dev/null 2>&1 || true
listed() { ctl --json list | json_get '"yes" if any(w.get("id") == sys.argv[2] for w in (j if isinstance(j, list) else j.get("workouts", []))) else ""' "$WID" 2>/dev/null | grep -qx yes; }
if [[ $rid == "$WID" ]] && poll 10 listed; then
  pass "stop: 'systemctl --user stop' + start during the workout continues $rid (Result=$result, exit $code); 'workoutctl stop' saves it: 'workoutctl list' shows $WID"
else
  fail "stop: after 'systemctl --user stop' + start the workout is '${rid}' (expected $WID), or $WID not listed after 'workoutctl stop' (Result=$result, exit $code)"
fi
[[ $result == success ]] || fail "stop: Result=$result exit status $code (expected a clean exit on SIGTERM)"

# ---- 8. a bad configuration exits 78 and is not restarted in a loop --------------------------------------
sh_u 'printf "{\"feeds\": 5}\n" > ~/.config/workoutd/config.json'
U systemctl --user restart workoutd.service >/dev/null 2>&1
restarts=$(prop NRestarts)
sleep 3                                          # RestartSec=1: a loop would show by now
if [[ $(prop ExecMainStatus) == 78 && $(prop ActiveState) == failed && $(prop NRestarts) == "$restarts" ]]; then
  pass "bad config: exit status 78, ActiveState=failed, not restarted (RestartPreventExitStatus=78)"
else
  fail "bad config: ExecMainStatus=$(prop ExecMainStatus) ActiveState=$(prop ActiveState) NRestarts=$(prop NRestarts) (was $restarts)"
fi
sh_u 'rm -f ~/.config/workoutd/config.json; systemctl --user reset-failed workoutd.service'

# ---- 9. the journal holds the daemon's structured lines ----------------------------------------------------
journal=$("$R" journal workoutd.service 2>/dev/null)
ns=$(grep -cE -- "$STATUS_EVENT_RE" <<< "$journal") nk=$(grep -cE -- "$STREAK_EVENT_RE" <<< "$journal")
if ((ns > 0 && nk > 0)); then
  pass "journal: $ns status lines (/$STATUS_EVENT_RE/), $nk streak lines (/$STREAK_EVENT_RE/)"
else
  fail "journal: $ns lines match /$STATUS_EVENT_RE/, $nk match /$STREAK_EVENT_RE/"
  grep -oE 'event=[A-Za-z0-9_.-]+' <<< "$journal" | sort | uniq -c | sed 's/^/      seen: /'
fi

# ---- 13. a batch of 1,000 files imported from /tmp under the sandbox, watchdog on ---------------------------
# PrivateTmp=yes: the daemon cannot see the user's /tmp; workoutctl opens the files and passes the
# descriptors (SCM_RIGHTS). Small GPX files, each an hour after the last so none is a duplicate.
U systemctl --user start workoutd.service
sh_u 'rm -rf /tmp/wt-batch && mkdir -p /tmp/wt-batch/sub && base=$(date -u -d 2019-01-01T00:00:00Z +%s) &&
      for i in $(seq 0 999); do
        d=/tmp/wt-batch; [ $((i % 10)) -eq 0 ] && d=/tmp/wt-batch/sub
        t=$((base + i * 3600)); pts=""
        for k in 0 1 2 3 4 5 6 7 8 9; do
          pts="$pts<trkpt lat=\"48.1$k\" lon=\"11.5$k\"><ele>500</ele><time>$(date -u -d @$((t + k * 10)) +%Y-%m-%dT%H:%M:%SZ)</time></trkpt>"
        done
        printf "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"ci\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><type>running</type><trkseg>%s</trkseg></trk></gpx>\n" "$pts" > $d/$i.gpx
      done' || fail "batch import: could not create the files"
restarts=$(prop NRestarts)
before=$(ctl --json list | json_get 'len(j.get("workouts", []))')
t0=$(date +%s%N)
out=$(ctl import /tmp/wt-batch 2>&1); rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
after=$(ctl --json list | json_get 'len(j.get("workouts", []))')
if ((rc == 0)) && [[ $(tail -n1 <<< "$out") == "1000 imported, 0 duplicates, 0 errors." ]] && ((after - before == 1000)) \
   && [[ $(prop NRestarts) == "$restarts" && $(prop ActiveState) == active ]]; then
  pass "batch import: 1,000 files from /tmp (PrivateTmp=yes for the daemon) imported in $ms ms, watchdog on, no restart; list $before -> $after"
else
  fail "batch import: exit $rc, list $before -> $after, NRestarts $restarts -> $(prop NRestarts), $(prop ActiveState); last lines: $(tail -n3 <<< "$out" | tr '\n' ' ')"
fi

# ---- 12. the daemon's sleep inhibitor (issue 14): a logind lock while a workout records ----------------
# (Before 10 and 11: 11f installs a polkit rule that grants block to ci.) ci lingers with no login
# session, so polkit refuses a block lock and grants delay, as on a headless machine: workoutd
# must take delay, say so in status, and let go within 1 s of stop.
ctl start running >/dev/null || fail "inhibitor: workoutctl start running failed"
if poll 10 eval 'U systemd-inhibit --list --no-pager 2>/dev/null | grep -q workoutd'; then
  line=$(U systemd-inhibit --list --no-pager 2>/dev/null | grep workoutd | tr -s ' ')
  if grep -qw delay <<< "$line"; then
    pass "inhibitor: while recording, systemd-inhibit --list shows workoutd's lock: $line"
  else
    fail "inhibitor: workoutd's lock is not a delay lock: $line"
  fi
else
  fail "inhibitor: no workoutd lock in systemd-inhibit --list within 10 s of start"
  U systemd-inhibit --list --no-pager 2>&1 | sed 's/^/      /'
fi
inh=$(ctl --json status | json_get '(j.get("sleepInhibitor") or {})')
held=$(ctl --json status | json_get '(j.get("sleepInhibitor") or {}).get("held")')
why=$(ctl --json status | json_get '(j.get("sleepInhibitor") or {}).get("state")')
if [[ $held == delay && $why == *"block was refused"* ]]; then
  pass "inhibitor: status says held=delay and why: $why"
else
  fail "inhibitor: status sleepInhibitor = $inh"
fi
ms=$(sh_u '/home/ci/.local/bin/workoutctl stop >/dev/null; s=$(date +%s%N); n=0
           while systemd-inhibit --list --no-pager 2>/dev/null | grep -q workoutd && [ $n -lt 100 ]; do sleep 0.05; n=$((n+1)); done
           echo $(( ($(date +%s%N) - s) / 1000000 ))')
if [[ $ms =~ ^[0-9]+$ ]] && ((ms < 1000)) && ! U systemd-inhibit --list --no-pager 2>/dev/null | grep -q workoutd; then
  pass "inhibitor: workoutd's lock gone ${ms} ms after 'workoutctl stop'"
else
  fail "inhibitor: lock still listed ${ms:-?} ms after stop"
fi

# ---- 10. sandbox exposure (information, documented in docs/systemd.md) ----------------------------------------
exposure=$(U systemd-analyze --user security --no-pager workoutd.service 2>/dev/null | grep -E 'Overall exposure')
info "systemd-analyze --user security workoutd.service: ${exposure#→ }"

# ---- 11. D-Bus: the system bus under the sandbox, logind's inhibitor locks -----------------------------
# The D-Bus client on its own (workoutd --debug-dbus, docs/dbus.md) against the rig's real
# dbus-daemon, systemd-logind and polkit. ci lingers without a login session, so polkit refuses
# it a block lock on sleep and grants delay, as on a headless machine; root gets block.
WD=/home/ci/.local/bin/workoutd
inhibit_lines() { "$R" root systemd-inhibit --list --no-pager 2>/dev/null | grep -F 'workoutd D-Bus check' || true; }
inhibit_mode() { inhibit_lines | awk '{print $NF}' | sort -u | tr '\n' ' ' | sed 's/ $//'; }
DTMP=$(mktemp -d /tmp/wdbus.XXXXXX)

# 11a. a call to org.freedesktop.DBus.ListNames from inside the service's sandbox
sh_u 'sed -e "s/^Type=notify/Type=oneshot/" -e "s|^ExecStart=.*|ExecStart=%h/.local/bin/workoutd --debug-dbus list-names|" \
        -e "/^ExecReload=/d" -e "/^WatchdogSec=/d" -e "/^Restart=/d" -e "/^Wants=/d" -e "/^After=/d" \
        /src/systemd/workoutd.service > ~/.config/systemd/user/workoutd-dbus-check.service &&
      systemctl --user daemon-reload'
U systemctl --user start workoutd-dbus-check.service >/dev/null 2>&1
# The unit's output reaches the journal after `start` returns (journald lags under load: a CI
# run at load ~10 read no line at all): wait for the line, up to 10 s.
for _ in $(seq 1 100); do
  out=$("$R" journal workoutd-dbus-check.service 2>/dev/null | grep -E 'ListNames|error' | tail -n 1)
  [[ -n $out ]] && break
  sleep 0.1
done
if [[ $(prop Result workoutd-dbus-check.service) == success && $out == *"ListNames:"*org.freedesktop.login1* ]]; then
  pass "D-Bus under the sandbox: ListNames on the system bus from a unit with workoutd.service's sandboxing succeeded (${out##*ListNames: })"
else
  fail "D-Bus under the sandbox: Result=$(prop Result workoutd-dbus-check.service) output: ${out:-none}"
fi

# 11b. block asked as ci (no login session): refused by polkit, delay taken, said so; gone at release
U $WD --debug-dbus inhibit block 4 > "$DTMP/block.out" 2>&1 &
bpid=$!
if poll 3 eval '[[ -n $(inhibit_lines) ]]'; then
  mode=$(inhibit_mode)
  if [[ $mode == delay ]] && grep -q 'block was refused' "$DTMP/block.out"; then
    pass "inhibitor as ci: block refused by polkit, delay granted; systemd-inhibit --list shows: $(inhibit_lines | tr -s ' ' | head -n 1)"
  else
    fail "inhibitor as ci: mode '$mode' in systemd-inhibit --list; output: $(tr '\n' '|' < "$DTMP/block.out")"
  fi
else
  fail "inhibitor as ci: no workoutd lock in systemd-inhibit --list within 3 s; output: $(tr '\n' '|' < "$DTMP/block.out")"
fi
wait $bpid
if poll 1 eval '[[ -z $(inhibit_lines) ]]'; then
  pass "inhibitor as ci: the lock is gone within 1 s of its release"
else
  fail "inhibitor as ci: lock still listed after release: $(inhibit_lines)"
fi

# 11c. block asked as root: granted
"$R" root /src/.build/debug/workoutd --debug-dbus inhibit block 3 > "$DTMP/root.out" 2>&1 &
rpid=$!
if poll 3 eval '[[ $(inhibit_mode) == block ]]'; then
  pass "inhibitor as root: block granted (systemd-inhibit --list mode block)"
else
  fail "inhibitor as root: mode '$(inhibit_mode)'; output: $(tr '\n' '|' < "$DTMP/root.out")"
fi
wait $rpid

# 11d. PrepareForSleep handling with a delay lock (the container cannot suspend, so the handler
# is driven at 2 s and 4 s): flush while the lock is held, lock gone while "asleep", re-taken after.
U $WD --debug-dbus inhibit delay 6 2 4 > "$DTMP/sleep.out" 2>&1 &
spid=$!
sleep 1.2; m1=$(inhibit_mode)
sleep 1.6; m2=$(inhibit_mode)
sleep 2.0; m3=$(inhibit_mode)
wait $spid
if [[ $m1 == delay && -z $m2 && $m3 == delay ]] && grep -q 'prepare-for-sleep: flushing (lock still delay held)' "$DTMP/sleep.out"; then
  pass "inhibitor PrepareForSleep: flushed while the delay lock was held, lock released for the suspend, re-taken on resume (listed: '$m1' / '$m2' / '$m3')"
else
  fail "inhibitor PrepareForSleep: listed '$m1' / '$m2' / '$m3'; output: $(tr '\n' '|' < "$DTMP/sleep.out")"
fi

# 11e. the inhibitor from inside the service's sandbox (what the daemon itself will do)
sh_u 'sed -e "s|^ExecStart=.*|ExecStart=%h/.local/bin/workoutd --debug-dbus inhibit block 4|" \
        ~/.config/systemd/user/workoutd-dbus-check.service > ~/.config/systemd/user/workoutd-inhibit-check.service &&
      systemctl --user daemon-reload && systemctl --user start --no-block workoutd-inhibit-check.service'
if poll 3 eval '[[ -n $(inhibit_lines) ]]'; then
  pass "inhibitor under the sandbox: the unit holds a '$(inhibit_mode)' lock ($(inhibit_lines | tr -s ' ' | head -n 1))"
else
  fail "inhibitor under the sandbox: no lock listed; $("$R" journal workoutd-inhibit-check.service 2>/dev/null | tail -n 3 | tr '\n' '|')"
fi

# 11f. with a polkit rule granting inhibit-block-sleep to ci (docs/dbus.md), ci gets block
"$R" root sh -c 'mkdir -p /etc/polkit-1/rules.d && cat > /etc/polkit-1/rules.d/50-workoutd.rules' <<'RULE'
polkit.addRule(function(action, subject) {
    if (action.id == "org.freedesktop.login1.inhibit-block-sleep" && subject.user == "ci")
        return polkit.Result.YES;
});
RULE
poll 3 eval '[[ -z $(inhibit_lines) ]]'   # the sandboxed check of 11e has let go
sleep 1                                   # polkitd reloads rules on change
U $WD --debug-dbus inhibit block 3 > "$DTMP/rule.out" 2>&1 &
qpid=$!
if poll 3 eval '[[ $(inhibit_mode) == block ]]'; then
  pass "inhibitor with the polkit rule of docs/dbus.md: ci holds a block lock"
else
  fail "inhibitor with the polkit rule: mode '$(inhibit_mode)'; output: $(tr '\n' '|' < "$DTMP/rule.out")"
fi
wait $qpid
rm -rf "$DTMP"

echo "systemd-test: $PASSES passed, $FAILS failed"
((FAILS == 0)) || exit 1
