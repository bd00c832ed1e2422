#!/usr/bin/env bash
# The README's quick start, timed as a new user meets it: a fresh clone (the tracked files of SOURCE, copied,
# so no build/ or .so of an earlier build), a new virtual environment, `pip install '.[server]'` with pip's
# cache off (every dependency and build requirement downloaded and built again), then `canasta serve` until it
# prints "Canasta is ready".
#
#   benchmarks/install_time.sh [SOURCE] [-- PIP_ARGS...]    # SOURCE: a working copy (default: this one)
#   CANASTA_PGO=1 benchmarks/install_time.sh                # any CANASTA_* build setting passes through
#
# Prints the wall time of each step, the install's CPU time (user + sys of pip and every process it waited
# for: the build's mypyc, gcc and the dependencies' installs), the build's parallel jobs, the load average
# before and after, and what `canasta --version` says (the install must be compiled: the script fails if not).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source="$here"
if [ $# -gt 0 ] && [ "$1" != "--" ]; then source="$(cd "$1" && pwd)"; shift; fi
[ "${1:-}" = "--" ] && shift
python="${PYTHON:-python3}"

work="$(mktemp -d "${TMPDIR:-/tmp}/canasta-install-XXXXXX")"
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# a fresh clone: the tracked files as they are in the working copy (uncommitted edits included)
mkdir "$work/clone"
(cd "$source" && git ls-files -z | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  xargs -0 cp --parents -t "$work/clone")
cd "$work/clone"

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; CANASTA_BUILD_JOBS=${CANASTA_BUILD_JOBS:-(default)}"
t0=$(now)
"$python" -m venv .venv
t1=$(now)
CANASTA_COMPILE="${CANASTA_COMPILE:-require}" /usr/bin/time -f '%e %U %S' -o "$work/pip.time" \
  .venv/bin/pip install -q --no-cache-dir "$@" '.[server]'
t2=$(now)
read -r pip_wall pip_user pip_sys <"$work/pip.time"

port=$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
.venv/bin/canasta serve --port "$port" --database "sqlite:///$work/canasta.db" >"$work/serve.out" 2>&1 &
server=$!
until grep -q "Canasta is ready" "$work/serve.out"; do
  if ! kill -0 "$server" 2>/dev/null; then cat "$work/serve.out" >&2; echo "canasta serve stopped" >&2; exit 1; fi
  sleep 0.1
done
t3=$(now)

version="$(.venv/bin/canasta --version)"
echo "$version"
case "$version" in *"(compiled)") ;; *) echo "the install is not compiled" >&2; exit 1 ;; esac
echo "venv                  $(elapsed "$t0" "$t1") s"
echo "pip install           $(elapsed "$t1" "$t2") s wall, CPU $(awk -v u="$pip_user" -v s="$pip_sys" 'BEGIN { printf "%.1f", u + s }') s (user $pip_user, sys $pip_sys)"
echo "serve until ready     $(elapsed "$t2" "$t3") s"
echo "total                 $(elapsed "$t0" "$t3") s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
