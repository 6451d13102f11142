#!/bin/sh
# scripts/install.sh: build workoutd in release mode and install it for the current user
# (no root needed). Run from anywhere:
#     scripts/install.sh
# Installs:
#   ~/.local/bin/workoutd, ~/.local/bin/workoutctl
#   ~/.config/systemd/user/workoutd.service, workoutd.socket, workoutd-web.socket (optional,
#   not enabled: docs/systemd.md)                                ($XDG_CONFIG_HOME honoured)
#   ~/.local/share/man/man1/workoutd.1, workoutctl.1            ($XDG_DATA_HOME honoured)
#   ~/.local/share/bash-completion/completions/workoutctl
# then prints the command that enables the service. Options:
#   --no-build   install what .build/release already holds
#   --prefix DIR install binaries into DIR/bin instead of ~/.local/bin (the unit expects
#                ~/.local/bin: edit ExecStart= with `systemctl --user edit workoutd` otherwise)
set -eu

cd "$(dirname "$0")/.."
build=1
bindir="$HOME/.local/bin"
while [ $# -gt 0 ]; do
    case $1 in
        --no-build) build=0 ;;
        --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a directory" >&2; exit 2; }
                  bindir="$2/bin"; shift ;;
        -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

config_home=${XDG_CONFIG_HOME:-$HOME/.config}
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
unitdir="$config_home/systemd/user"
mandir="$data_home/man/man1"
compdir="$data_home/bash-completion/completions"

if [ "$build" = 1 ]; then
    # --static-swift-stdlib: the Swift runtime linked in, which keeps the idle daemon at ~8.6 MB
    # resident instead of ~11 MB (BENCHMARKS.md).
    echo "==> swift build -c release --static-swift-stdlib"
    swift build -c release --static-swift-stdlib --product workoutd
    swift build -c release --static-swift-stdlib --product workoutctl
fi
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
for b in workoutd workoutctl; do
    [ -x "$bin/$b" ] || { echo "install.sh: $bin/$b is missing (build first)" >&2; exit 1; }
done

echo "==> installing"
install -d -m 0755 "$bindir" "$unitdir" "$mandir" "$compdir"
install -m 0755 "$bin/workoutd" "$bin/workoutctl" "$bindir/"
install -m 0644 systemd/workoutd.service systemd/workoutd.socket systemd/workoutd-web.socket "$unitdir/"
install -m 0644 man/workoutd.1 man/workoutctl.1 "$mandir/"
install -m 0644 completions/workoutctl.bash "$compdir/workoutctl"
# The service is sandboxed (ProtectSystem=strict): its writable directories must exist.
install -d -m 0700 "$data_home/workoutd" "${XDG_STATE_HOME:-$HOME/.local/state}/workoutd"
for f in "$bindir/workoutd" "$bindir/workoutctl" "$unitdir/workoutd.service" "$unitdir/workoutd.socket" \
         "$unitdir/workoutd-web.socket" "$mandir/workoutd.1" "$mandir/workoutctl.1" "$compdir/workoutctl"; do
    echo "    $f"
done

if command -v systemctl >/dev/null 2>&1 && systemctl --user daemon-reload 2>/dev/null; then
    if systemctl --user is-active --quiet workoutd.service; then
        echo "==> workoutd is running: restart it to use the new binary:"
        echo "    systemctl --user restart workoutd.service"
    fi
else
    echo "==> (no systemd user manager reachable: run 'systemctl --user daemon-reload' in your session)"
fi
case ":$PATH:" in *":$bindir:"*) ;; *) echo "==> note: $bindir is not in PATH" ;; esac
echo
echo "Next step: start workoutd on demand (and at login):"
echo "    systemctl --user enable --now workoutd.socket"
