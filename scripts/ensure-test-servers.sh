#!/usr/bin/env bash
# The multi-node e2e tests run real servers next to the app: a load balancer (nginx) in front of the
# nodes, and redis-server behind them (@mocapi/nestjs/redis); the MCP Apps e2e renders the sample's
# app in Debian's headless chromium (driven by playwright-core, which downloads no browser of its
# own). Installs the Debian packages that are missing when we may (root with apt-get); otherwise
# says how.
set -euo pipefail
missing=()
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then missing+=(nginx-light); fi
if ! command -v redis-server >/dev/null 2>&1 && [ ! -x /usr/bin/redis-server ]; then missing+=(redis-server); fi
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} for the multi-node and browser tests..."
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi
echo "Not installed: ${missing[*]}; the multi-node and browser tests need them (e.g. sudo apt-get install ${missing[*]})." >&2
exit 1
