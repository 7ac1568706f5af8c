#!/usr/bin/env bash
# The multi-node e2e test puts a real load balancer (nginx) in front of two app instances.
# Installs Debian's nginx-light when it is missing and we may (root with apt-get); otherwise says how.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing nginx-light for the multi-node load-balancer test..."
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light >/dev/null
  exit 0
fi
echo "nginx is not installed: the multi-node test needs it (e.g. sudo apt-get install nginx-light)." >&2
exit 1
