# Shared shell helpers for tierscope's tools: paths, logging, failing with a clear next step.
# Sourced, never run. Callers set -euo pipefail themselves.

TS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Dependency builds live outside the checkout, keyed by version, so a clean clone reuses them.
TS_DEPS="${TIERSCOPE_DEPS:-${XDG_CACHE_HOME:-$HOME/.cache}/tierscope}"
export TIERSCOPE_DEPS="$TS_DEPS"
# Debian's emscripten needs Debian's node modules (acorn) on NODE_PATH.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
TS_JOBS="${TIERSCOPE_JOBS:-$(nproc 2>/dev/null || echo 2)}"
# Our own objects are cached beside the dependency builds (ccache, when the set-up has installed it): a clean
# clone anywhere compiles only what changed since the last build on this machine. Paths are taken relative
# to the checkout, so another clone's objects match. TIERSCOPE_CCACHE=0 builds without it.
# Called again after the set-up, which may have just installed it.
ts_use_ccache() {
  if [ "${TIERSCOPE_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
    export CCACHE_DIR="${CCACHE_DIR:-$TS_DEPS/ccache}" CCACHE_BASEDIR="$TS_ROOT" CCACHE_NOHASHDIR=1
    export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-3G}"
    export CMAKE_CXX_COMPILER_LAUNCHER="${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}"
  fi
}
ts_use_ccache

ts_log()  { printf '\033[1;34m[tierscope]\033[0m %s\n' "$*" >&2; }
ts_warn() { printf '\033[1;33m[tierscope] warning:\033[0m %s\n' "$*" >&2; }
# ts_die <what failed> <what to do>
ts_die()  { printf '\033[1;31m[tierscope] error:\033[0m %s\n  what to do: %s\n' "$1" "$2" >&2; exit 1; }

# Run a command as root: directly when we are root, through sudo otherwise.
ts_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else ts_die "need root to run: $*" "run this script as root, or install sudo"
  fi
}

# Seconds since the epoch with a fraction, for timing the steps we report.
ts_now() { date +%s.%N; }
ts_since() { awk -v a="$1" -v b="$(ts_now)" 'BEGIN { printf "%.1f", b - a }'; }
