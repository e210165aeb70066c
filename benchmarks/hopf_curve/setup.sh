#!/usr/bin/env bash
# Octave 7 for the DDE-BIFTOOL side of this benchmark (issue 33): the Debian package `octave`
# (binary `octave-cli`), installed with apt-get when missing (needs root or sudo), then the
# version printed. DDE-BIFTOOL itself is not a Debian package: point DDEBIFTOOL_DIR at a checkout
# of it (the folder holding ddebiftool/ and ddebiftool_utilities/, e.g. its GitHub mirror
# DDE-BifTool/DDE-Biftool or a SourceForge release); the script checks that it is there.
set -euo pipefail
if ! command -v octave-cli >/dev/null 2>&1; then
    SUDO=""
    if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends octave
fi
echo "octave: $(command -v octave-cli) (package octave $(dpkg-query -W -f='${Version}' octave 2>/dev/null || echo '?'))"
if [[ -z "${DDEBIFTOOL_DIR:-}" ]]; then
    echo "DDEBIFTOOL_DIR is not set: name a DDE-BIFTOOL checkout (folder with ddebiftool/ and ddebiftool_utilities/)" >&2
    exit 1
fi
for sub in ddebiftool ddebiftool_utilities; do
    if [[ ! -f "$DDEBIFTOOL_DIR/$sub/br_contn.m" && ! -d "$DDEBIFTOOL_DIR/$sub" ]]; then
        echo "DDEBIFTOOL_DIR=$DDEBIFTOOL_DIR has no $sub/ folder" >&2
        exit 1
    fi
done
echo "DDE-BIFTOOL: $DDEBIFTOOL_DIR"
