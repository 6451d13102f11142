# Sourced by the *-once.sh scripts: starts a fresh daemon ($BIN/workoutd) with an empty history
# in a temp dir ($H, exported as HOME and the XDG dirs), stopped and removed when the script exits.
H=$(mktemp -d /tmp/wbx.XXXXXX)
mkdir -p "$H/run" && chmod 700 "$H/run"
export HOME=$H XDG_RUNTIME_DIR=$H/run XDG_DATA_HOME=$H/data XDG_STATE_HOME=$H/state XDG_CONFIG_HOME=$H/config
"$BIN/workoutd" > "$H/log" 2>&1 & DPID=$!
trap 'kill $DPID 2>/dev/null; wait $DPID 2>/dev/null; rm -rf "$H"' EXIT
for _ in $(seq 2000); do [[ -S $H/run/workoutd/control.sock ]] && break; sleep 0.005; done
