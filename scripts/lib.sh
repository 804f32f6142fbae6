# Shared by scripts/serve, scripts/test and scripts/build: find or install every tool the build
# needs, at the exact versions we pin, without ever letting Trunk download anything.
# Each ensure_* step is skipped when the right version is already there, and says how long it took.
# Stable Rust only: the toolchain is pinned in rust-toolchain.toml; nothing here unlocks
# unstable features or passes unstable compiler flags.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TRUNK_VERSION="0.21.14"   # newest Trunk that builds with the pinned rustc (0.22 needs a newer one)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# Under CI=true every run installs as a new machine would: an empty CARGO_HOME of its own (so
# every crate and tool is fetched and built by these scripts), no node_modules, no target/ or
# dist/. rustup's toolchains stay where they are (RUSTUP_HOME). A CI run that passes therefore
# proves the README's commands on a fresh machine, not on a warm cache.
if [ "${CI:-}" = true ] && [ -z "${VERIFYFAST_FRESH_DONE:-}" ]; then
  export VERIFYFAST_FRESH_DONE=1
  export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
  RUSTUP_BIN="$(command -v rustup || echo "$HOME/.cargo/bin/rustup")"
  CARGO_HOME="$(mktemp -d "${TMPDIR:-/tmp}/verifyfast-cargo-home.XXXXXX")"
  export CARGO_HOME
  # Nothing in it is kept for the next run, so it does not pile up on the disk either.
  trap 'rm -rf "$CARGO_HOME"' EXIT
  # The folder that holds rustup usually holds tools installed by hand too (trunk,
  # wasm-bindgen): take it off PATH and reach rustup's proxies (cargo, rustc, clippy, rustfmt)
  # through links of our own, so every tool really comes from this run's installs.
  mkdir -p "$CARGO_HOME/rustup-proxies"
  for proxy in rustup cargo rustc rustdoc cargo-clippy clippy-driver rustfmt cargo-fmt; do
    ln -sf "$RUSTUP_BIN" "$CARGO_HOME/rustup-proxies/$proxy"
  done
  PATH="$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF -e "$(dirname "$RUSTUP_BIN")" -e "$HOME/.cargo/bin" | paste -sd: -)"
  export PATH="$CARGO_HOME/rustup-proxies:$PATH"
  say "CI=true: fresh install (empty CARGO_HOME $CARGO_HOME; removing node_modules, target, dist)"
  rm -rf node_modules target dist
fi
if [ -n "${VERIFYFAST_FRESH_DONE:-}" ]; then
  export PATH="$CARGO_HOME/bin:$ROOT/node_modules/.bin:$PATH"
else
  export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
  export PATH="$CARGO_HOME/bin:$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
fi
# Trunk must not phone home for its own version either.
export TRUNK_SKIP_VERSION_CHECK=true

# "install: NAME took N s" after each install step that ran (scripts/test prints them again in
# its summary), so a slow fresh install shows where its time went.
mkdir -p "$ROOT/target"
INSTALL_LOG="$ROOT/target/install-times.txt"
: > "$INSTALL_LOG"
timed() {
  local name="$1" start
  shift
  start=$(date +%s)
  "$@"
  local line="install: $name took $(( $(date +%s) - start )) s"
  say "$line"
  echo "$line" >> "$INSTALL_LOG"
}

# The wasm-bindgen version in Cargo.lock: the CLI must equal it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

# rust-toolchain.toml names the toolchain, its wasm target and components; rustup installs
# whatever of it is missing. Checked with `rustup toolchain list` first, because any other rustup or
# cargo call in this folder would install the toolchain silently, untimed.
ensure_toolchain() {
  if ! command -v rustup >/dev/null; then
    echo "rustup is needed (https://rustup.rs); it installs the toolchain pinned in rust-toolchain.toml" >&2
    exit 1
  fi
  local channel
  channel="$(sed -n 's/^channel = "\(.*\)"/\1/p' rust-toolchain.toml)"
  if ! rustup toolchain list 2>/dev/null | grep -q "^$channel-"; then
    say "installing Rust $channel with the wasm32 target, clippy and rustfmt (rust-toolchain.toml)"
    timed "rust toolchain $channel" rustup toolchain install
  fi
  # A toolchain that was already there may lack the target or a component.
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    timed "rust target wasm32-unknown-unknown" rustup target add wasm32-unknown-unknown
  fi
  if ! cargo clippy --version >/dev/null 2>&1 || ! cargo fmt --version >/dev/null 2>&1; then
    timed "rust components clippy, rustfmt" rustup component add clippy rustfmt
  fi
}

ensure_trunk() {
  if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
    say "installing trunk $TRUNK_VERSION (about 9 minutes on 2 cores, once)"
    timed "trunk $TRUNK_VERSION" cargo install trunk --version "$TRUNK_VERSION" --locked
  fi
}

ensure_wasm_bindgen() {
  local want
  if [ ! -f Cargo.lock ]; then cargo generate-lockfile; fi
  want="$(wasm_bindgen_version)"
  if [ -z "$want" ]; then echo "cannot read the wasm-bindgen version from Cargo.lock" >&2; exit 1; fi
  if ! grep -q "wasm_bindgen = \"$want\"" Trunk.toml; then
    echo "Trunk.toml [tools] wasm_bindgen must equal Cargo.lock's wasm-bindgen $want" >&2; exit 1
  fi
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $want" ]; then
    say "installing wasm-bindgen-cli $want (about 5 minutes, once)"
    # Not --locked: one of its locked dependency versions is missing from the registry.
    timed "wasm-bindgen-cli $want" cargo install wasm-bindgen-cli --version "$want" --force
  fi
}

ensure_npm() {
  # npm ci installs exactly package-lock.json; skip it when node_modules came from this same lock.
  local stamp=node_modules/.verifyfast-lock.sha256 want
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing npm packages (KaTeX, binaryen's wasm-opt, playwright-core)"
    timed "npm packages" npm ci --no-audit --no-fund
    echo "$want" > "$stamp"
  fi
}

# Debian packages, installed through one apt-get call: two apt-gets at once fail on dpkg's lock
# ("Could not get lock /var/lib/apt/lists/lock"), so every package a script needs is asked for
# here, in the foreground, before any background work starts. The lock timeout covers an
# apt-get that something else on the machine (unattended upgrades) is running.
apt_install() {
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get -o DPkg::Lock::Timeout=300 update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=300 install -y "$@"
}

# What scripts/test needs from Debian, by what each is for; prints the missing package names.
#   chromium, chromium-driver: the browser tests (npx playwright install cannot download here)
#   cmake:                     building llama.cpp for the real-server tier (when it runs)
#   python3-venv:              `python3 -m venv` for the Python package's suite (ensurepip)
missing_debian_packages() {
  local with_real_llm="$1" missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
  if [ "$with_real_llm" = 1 ] && ! command -v cmake >/dev/null; then missing+=(cmake); fi
  if command -v python3 >/dev/null; then
    local probe
    probe="$(mktemp -d "${TMPDIR:-/tmp}/verifyfast-venv-probe.XXXXXX")"
    python3 -m venv "$probe/venv" >/dev/null 2>&1 || missing+=(python3-venv)
    rm -rf "$probe"
  fi
  echo "${missing[*]}"
}

ensure_debian_packages() {
  local missing
  missing="$(missing_debian_packages "$1")"
  if [ -n "$missing" ]; then
    say "installing Debian packages in one step: $missing"
    # shellcheck disable=SC2086 # a list of package names
    timed "Debian packages ($missing)" apt_install $missing
  fi
  if ! command -v python3 >/dev/null; then
    echo "python3 is needed for the Python package's tests (Debian: apt-get install python3)" >&2
    exit 1
  fi
}

ensure_build_tools() {
  ensure_toolchain
  ensure_npm
  ensure_wasm_bindgen
  ensure_trunk
}
