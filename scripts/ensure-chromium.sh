#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests (Playwright uses
# it through executablePath; `npx playwright install` cannot download browsers here).
# Installs the `chromium` package with apt-get when it is missing; does nothing otherwise.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: /usr/bin/chromium is missing and apt-get is not available" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-chromium: need root (or sudo) to install chromium" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
echo "ensure-chromium: installing Debian's chromium"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo installed)"
