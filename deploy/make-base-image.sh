#!/usr/bin/env bash
# Makes the base image the Containerfile starts from, docker.io/library/debian:bookworm-slim, from
# Debian's own packages, for a machine whose container engine reaches no image registry (only the
# Debian mirror). Where the registry is reachable, `podman pull debian:bookworm-slim` does the same.
#
# debootstrap's minbase variant (essential packages and apt), then what the official slim image
# does to stay small: dpkg leaves out documentation (licences stay), manual pages and translations,
# and apt keeps no downloaded packages. Needs root (debootstrap), about 2 minutes and 100 MB.
#
#   bash deploy/make-base-image.sh [TAG]     (default docker.io/library/debian:bookworm-slim)
set -euo pipefail
tag="${1:-docker.io/library/debian:bookworm-slim}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
engine="${CONTAINER_ENGINE:-podman}"
root="$(mktemp -d "${TMPDIR:-/tmp}/castpress-rootfs-XXXXXX")"
trap 'rm -rf "$root"' EXIT

debootstrap --variant=minbase bookworm "$root" "$mirror" >&2

cat >"$root/etc/dpkg/dpkg.cfg.d/slim" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
DPKG
cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
# The same sources as the official image: the release, its updates and security.
rm -f "$root/etc/apt/sources.list"
cat >"$root/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
# What the slim image leaves out of an installed system.
find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* \
  "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
  "$root"/var/log/*.log "$root"/var/log/apt/* "$root"/tmp/*
: >"$root/etc/machine-id"

tar --numeric-owner -C "$root" -c . | "$engine" import --change 'CMD ["bash"]' - "$tag" >/dev/null
echo "$tag"
