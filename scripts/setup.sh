#!/bin/sh
# Installs the project's dependencies, including the Node 24 its scripts run on, whenever
# package-lock.json has changed since the last install. Runs on the system's own Node and npm,
# so it is plain shell. Called by `npm start`, `npm test` and `npm run bench`.
set -eu
cd "$(dirname "$0")/.."

stamp=node_modules/.evident-installed-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "▸ Installing dependencies (npm ci)…"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

# npm puts node_modules/.bin first on PATH for scripts, so `node` there is the project's Node 24
# (from the node-linux-* package). Elsewhere the system Node must already be new enough.
node_bin=node_modules/.bin/node
[ -x "$node_bin" ] || node_bin=node
major=$("$node_bin" -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 24 ]; then
  echo "Evident needs Node.js 24 for its scripts. No Node 24 package exists for this platform," >&2
  echo "so install Node 24 yourself (e.g. 'nvm install 24') and run the command again." >&2
  exit 1
fi
