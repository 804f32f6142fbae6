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

have_rust_src() { rustup component list --installed 2>/dev/null | grep -qx rust-src; }

ensure_rust_src() {
  if [ "${VERIFYFAST_STABLE_STD:-0}" != 1 ] && ! have_rust_src; then
    say "adding the rust-src component (the release wasm rebuilds std for size)"
    rustup component add rust-src || say "no rust-src: the wasm is built with the stock std, about 32 KB larger: over the 400 KB budget"
  fi
}

# Runs "$@" (a trunk build) with Rust's standard library rebuilt for size: -Zbuild-std with std's
# optimize_for_size feature, panics that abort at once (no message or location strings), and no
# file/line strings for panic sites. About 32 KB gzipped less wasm (README, "Size"). These are
# unstable cargo/rustc options, enabled on this stable toolchain with RUSTC_BOOTSTRAP (as the
# Linux kernel does for its Rust code). Only this command sees them: cargo test, clippy and the
# CLI build with plain stable Rust. VERIFYFAST_STABLE_STD=1, or no rust-src, builds the stock way.
with_size_std() {
  if [ "${VERIFYFAST_STABLE_STD:-0}" = 1 ] || ! have_rust_src; then
    "$@"
    return
  fi
  # Replaces .cargo/config.toml's wasm32 rustflags, so it repeats --cfg erase_components.
  RUSTC_BOOTSTRAP=1 \
  CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
  CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg erase_components -Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none" \
    "$@"
}

ensure_build_tools() {
  ensure_wasm_target
  ensure_rust_src
  ensure_npm
  ensure_wasm_bindgen
  ensure_trunk
}
