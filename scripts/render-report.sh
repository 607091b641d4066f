#!/usr/bin/env bash
# render-report.sh REPORT.html OUT.png: renders a run's report in Debian's
# chromium, headless, to a PNG; installs chromium first when it is missing.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 REPORT.html OUT.png" >&2
  exit 2
fi
report=$(realpath "$1")
out=$(realpath -m "$2")
if [ ! -f "$report" ]; then
  echo "$0: no such report: $1 (write one with: tune report RUNDIR)" >&2
  exit 1
fi
if ! command -v chromium >/dev/null 2>&1; then
  echo "installing chromium (Debian package)..." >&2
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --window-size=1280,2400 --screenshot="$out" "file://$report" 2>/dev/null
echo "$out"
