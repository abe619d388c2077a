#!/bin/sh
# Makes a base image for the Containerfile where no container registry is reachable: Debian 12 (bookworm) from
# Debian's own packages (debootstrap), plus the Node.js this host runs at /usr/bin/node (with its headers and npm under /usr;
# Node 20.19+ is required, and Debian 12's own nodejs is 18). Needs root, debootstrap and buildah.
#
#   sh deploy/base-image/make-base.sh [image-name]            (default localhost/svc-base:bookworm)
#   buildah bud --format docker --isolation chroot --build-arg BASE_IMAGE=localhost/svc-base:bookworm -f Containerfile -t svc .
#   sh deploy/base-image/smoke-test.sh svc [postgres://…]      (starts it with buildah run and checks it)
#
# EXTRA_CA_FILE=/path/ca.pem adds a certificate authority (a TLS-intercepting proxy's) to the image's trust
# store and to npm's, for builds behind one; leave it unset otherwise.
set -eu
IMAGE=${1:-localhost/svc-base:bookworm}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
ROOTFS=$(mktemp -d /var/tmp/svc-base.XXXXXX)
trap 'rm -rf "$ROOTFS"' EXIT

node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)' \
  || { echo "make-base.sh: this host's Node.js $(node --version) is older than 20.19" >&2; exit 1; }

debootstrap --variant=minbase --include=ca-certificates bookworm "$ROOTFS" "$MIRROR"

# The host's Node.js: the binary, its headers (native addons compile against them instead of downloading them),
# and the npm and corepack it runs (copied as they are: npm may have been upgraded since the package was installed).
mkdir -p "$ROOTFS/usr/bin" "$ROOTFS/usr/include" "$ROOTFS/usr/lib/node_modules"
cp -a "$(command -v node)" "$ROOTFS/usr/bin/node"
cp -a /usr/include/node "$ROOTFS/usr/include/node"
for tool in npm corepack; do cp -a "/usr/lib/node_modules/$tool" "$ROOTFS/usr/lib/node_modules/$tool"; done
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/bin/npx"
ln -sf ../lib/node_modules/corepack/dist/corepack.js "$ROOTFS/usr/bin/corepack"
# npm's global settings (its prefix is /usr): native addons (better-sqlite3) compile against those headers.
mkdir -p "$ROOTFS/usr/etc"
printf 'nodedir=/usr\n' > "$ROOTFS/usr/etc/npmrc"
EXTRA_ENV=

if [ -n "${EXTRA_CA_FILE:-}" ]; then
  cp "$EXTRA_CA_FILE" "$ROOTFS/usr/local/share/ca-certificates/extra-ca.crt"
  chroot "$ROOTFS" update-ca-certificates >/dev/null
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\n' >> "$ROOTFS/usr/etc/npmrc"
  # Node's own fetch trusts its bundled authorities only, unless told.
  EXTRA_ENV="--env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt"
fi
rm -rf "$ROOTFS/var/lib/apt/lists/"* "$ROOTFS/var/cache/apt/archives/"*.deb

ctr=$(buildah from scratch)
buildah copy "$ctr" "$ROOTFS" / >/dev/null
# shellcheck disable=SC2086 # EXTRA_ENV is two words or none
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin $EXTRA_ENV --cmd '["node"]' \
  --label org.opencontainers.image.description="Debian 12 with Node.js $(node --version), for the svc Containerfile" "$ctr"
buildah commit --rm "$ctr" "$IMAGE"
echo "made $IMAGE (Debian 12, Node.js $(node --version))"
