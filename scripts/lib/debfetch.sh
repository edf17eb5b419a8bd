# shellcheck shell=bash
# debfetch DIR RELEASE PACKAGE...: Debian packages of another release,
# unpacked under DIR/root and never installed.
#
# Why: some boots want a newer QEMU (x2APIC under TCG, scripts/qemu-backport.sh),
# a newer OVMF (scripts/ovmf-fetch.sh) or Debian 13's Linux kernel
# (scripts/linux-ref.sh) than Debian 12 ships.  apt-get downloads them with
# a sources list and state of their own under DIR, so the system's apt
# configuration is not touched, and dpkg -x unpacks them.  The archive is
# the machine's own Debian mirror (debfetch_mirror); no host name is written
# here.  Every PACKAGE comes in RELEASE's version (apt-cache madison).  Sets
# debfetch_version to the first package's version.  Returns 0, or 1 with a
# message on stderr naming the step that failed (its log: DIR/apt.log).
#
# The steps one by one, for a caller that must ask the archive first
# (scripts/linux-ref.sh looks up the kernel package's name):
#   debfetch_init DIR RELEASE      fresh DIR, its sources list, apt-get update
#   debfetch_cache ARGS...         apt-cache with DIR's lists (after init)
#   debfetch_get PACKAGE...        download RELEASE's versions, unpack in DIR/root
# debfetch_mirror: prints the Debian archive the machine's apt uses: the
# first URIs: of /etc/apt/sources.list.d/*.sources, else the first URI of a
# "deb" line of /etc/apt/sources.list or sources.list.d/*.list, that is not
# a security archive; DEBIAN_MIRROR overrides, DEBFETCH_APT_ETC reads
# another directory than /etc/apt (tests/sh/debfetch.sh).  Returns 1 when
# there is none.
# debfetch_cli NAME [ARG]: the fetch scripts' command line.  -h or --help
# prints the calling script's header and exits 0; another option is a usage
# error (exit 2).  Returns for a DIR or no argument.
debfetch_cli() {
	case ${2:-} in
	-h | --help)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	-*)
		echo "$1: unknown option '$2' (usage: scripts/$1.sh [DIR], -h for help)" >&2
		exit 2
		;;
	esac
}

debfetch_mirror() {
	local etc=${DEBFETCH_APT_ETC:-/etc/apt} f uri
	if [ -n "${DEBIAN_MIRROR:-}" ]; then
		echo "$DEBIAN_MIRROR"
		return 0
	fi
	for f in "$etc"/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# deb822: "URIs: a b" lines, comments (#) and disabled stanzas aside
		uri=$(awk '/^[[:space:]]*#/ { next }
			/^[Ee]nabled:[[:space:]]*no/ { off = 1 }
			/^[[:space:]]*$/ { off = 0 }
			/^URIs:/ && !off { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f")
		[ -z "$uri" ] || { echo "$uri"; return 0; }
	done
	for f in "$etc/sources.list" "$etc"/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		# deb [options] URI suite components
		uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { if ($i !~ /security/) print $i; break } }' "$f" | head -n 1)
		[ -z "$uri" ] || { echo "$uri"; return 0; }
	done
	return 1
}

debfetch_init() {
	local mirror
	debfetch_dir=$1 debfetch_release=$2
	if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
		echo "debfetch: needs apt-get and dpkg (Debian)" >&2
		return 1
	fi
	if ! mirror=$(debfetch_mirror); then
		echo "debfetch: no Debian mirror in the apt configuration (a URIs: line in /etc/apt/sources.list.d/*.sources or a deb line in /etc/apt/sources.list); set DEBIAN_MIRROR=URL" >&2
		return 1
	fi
	rm -rf "$debfetch_dir" && mkdir -p "$debfetch_dir/apt/lists/partial" "$debfetch_dir/apt/cache/archives/partial" "$debfetch_dir/debs"
	echo "deb $mirror $debfetch_release main" >"$debfetch_dir/apt/sources.list"
	debfetch_opts=(-o "Dir::Etc::SourceList=$debfetch_dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$debfetch_dir/apt/lists" -o "Dir::Cache=$debfetch_dir/apt/cache"
		-o APT::Sandbox::User=root -q)
	if ! apt-get "${debfetch_opts[@]}" update >"$debfetch_dir/apt.log" 2>&1 ||
		grep -q '^Err:\|^E:\|^W: Failed to fetch\|^W: Some index files failed' "$debfetch_dir/apt.log"; then
		echo "debfetch: apt-get update of $debfetch_release from $mirror failed (no network? see $debfetch_dir/apt.log)" >&2
		return 1
	fi
}

debfetch_cache() { apt-cache "${debfetch_opts[@]}" "$@"; }

debfetch_get() {
	local pkg deb v
	local -a specs=()
	debfetch_version=
	for pkg in "$@"; do
		v=$(debfetch_cache madison "$pkg" 2>/dev/null |
			awk -v r="$debfetch_release" '$0 ~ r { print $3; exit }')
		if [ -z "$v" ]; then
			echo "debfetch: no $pkg in $debfetch_release" >&2
			return 1
		fi
		specs+=("$pkg=$v")
		[ -n "$debfetch_version" ] || debfetch_version=$v
	done
	if ! (cd "$debfetch_dir/debs" && apt-get "${debfetch_opts[@]}" download "${specs[@]}") >>"$debfetch_dir/apt.log" 2>&1; then
		echo "debfetch: downloading ${specs[*]} failed (see $debfetch_dir/apt.log)" >&2
		return 1
	fi
	for deb in "$debfetch_dir"/debs/*.deb; do dpkg -x "$deb" "$debfetch_dir/root" || return 1; done
	rm -rf "$debfetch_dir/debs" "$debfetch_dir/apt/cache"
}

debfetch() {
	debfetch_init "$1" "$2" || return 1
	shift 2
	debfetch_get "$@"
}
