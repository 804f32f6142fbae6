# Shared by scripts/serve, scripts/test and scripts/size: find or install every tool the build
# needs, at the exact versions we pin, without ever letting Trunk download anything.
# Each ensure_* step is skipped when the right version is already there.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TRUNK_VERSION="0.21.14"   # newest Trunk that builds with this machine's rustc (0.22 needs a newer one)
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
# Trunk must not phone home for its own version either.
export TRUNK_SKIP_VERSION_CHECK=true

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# The wasm-bindgen version in Cargo.lock: the CLI must equal it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

ensure_wasm_target() {
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
}

ensure_trunk() {
  if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
    say "installing trunk $TRUNK_VERSION (about 9 minutes on 2 cores, once)"
    cargo install trunk --version "$TRUNK_VERSION" --locked
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
    cargo install wasm-bindgen-cli --version "$want" --force
  fi
}

ensure_npm() {
  # npm ci installs exactly package-lock.json; skip it when node_modules came from this same lock.
  local stamp=node_modules/.verifyfast-lock.sha256 want
  want="$(sha256sum package-lock.json | cut -d' ' -f1)"
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing npm packages (KaTeX, binaryen's wasm-opt, playwright-core)"
    npm ci --no-audit --no-fund
    echo "$want" > "$stamp"
  fi
}

ensure_chromium() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing Debian chromium + chromium-driver for the browser tests"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium chromium-driver
  fi
}

ensure_build_tools() {
  ensure_wasm_target
  ensure_npm
  ensure_wasm_bindgen
  ensure_trunk
}
