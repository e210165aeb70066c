#!/usr/bin/env bash
# ns-2 2.35 for the ns-2 harness (issue 27): the Debian/Ubuntu package `ns2` (binary `ns`).
# Installs it with apt-get when `ns` is missing (needs root or sudo), then prints the version.
set -euo pipefail
if ! command -v ns >/dev/null 2>&1; then
    SUDO=""
    if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq ns2
fi
echo "ns: $(command -v ns) (package ns2 $(dpkg-query -W -f='${Version}' ns2 2>/dev/null || echo '?'))"
