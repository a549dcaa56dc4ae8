#!/usr/bin/env bash
# Installs the system packages MediaGraph builds against and tests with, if any is missing.
# Idempotent: on a machine that has them all, it does nothing (no apt-get update).
set -euo pipefail
pkgs=(pkg-config libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev libvpx-dev libimagequant-dev libwebp-dev libfreetype-dev libfontconfig-dev libass-dev fonts-dejavu-core ffmpeg frei0r-plugins chromium graphviz mkvtoolnix python3 python3-jsonschema libegl1 libegl-mesa0 libgles2 slurmctld slurmd slurm-client munge)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: swift is not on PATH (Swift 6 toolchain required)" >&2; exit 1; }
