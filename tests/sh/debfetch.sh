#!/usr/bin/env bash
# TAP: scripts/lib/debfetch.sh finds the Debian mirror in an apt
# configuration as apt writes it (deb822 .sources and one-line .list files),
# skipping security archives, comments and disabled stanzas; DEBIAN_MIRROR
# overrides; no configuration is an error.  No network.
# Usage: tests/sh/debfetch.sh
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/sh/lib/tap.sh
. "$top/tests/sh/lib/tap.sh"
# shellcheck source=scripts/lib/debfetch.sh
. "$top/scripts/lib/debfetch.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DEBIAN_MIRROR

# mirror_of DIR: what debfetch_mirror finds in DIR as /etc/apt
mirror_of() { DEBFETCH_APT_ETC=$1 debfetch_mirror; }

d=$tmp/deb822 && mkdir -p "$d/sources.list.d"
cat >"$d/sources.list.d/debian.sources" <<'X'
Types: deb
# http://old.example/debian
URIs: http://security.example/debian-security
Suites: bookworm-security
Components: main

Types: deb
Enabled: no
URIs: http://disabled.example/debian
Suites: bookworm

Types: deb
URIs: http://mirror.example/debian http://second.example/debian
Suites: bookworm bookworm-updates
Components: main
X
eq "$(mirror_of "$d")" http://mirror.example/debian
tap_check $? "deb822: the first enabled URI that is not a security archive" "$(mirror_of "$d")"

d=$tmp/oneline && mkdir -p "$d/sources.list.d"
cat >"$d/sources.list" <<'X'
# deb http://commented.example/debian bookworm main
deb http://security.example/debian-security bookworm-security main
deb [signed-by=/usr/share/keyrings/k.gpg arch=amd64] http://mirror.example/debian bookworm main
X
eq "$(mirror_of "$d")" http://mirror.example/debian
tap_check $? "sources.list: a deb line's URI after its [options]" "$(mirror_of "$d")"

d=$tmp/none && mkdir -p "$d/sources.list.d"
! mirror_of "$d" >/dev/null
tap_check $? "no configuration: no mirror (status 1)"

eq "$(DEBIAN_MIRROR=http://override.example/debian mirror_of "$d")" http://override.example/debian
tap_check $? "DEBIAN_MIRROR overrides"

! grep -Eq 'https?://[a-z]' "$top/scripts/lib/debfetch.sh"
tap_check $? "debfetch.sh names no archive host"
tap_done
