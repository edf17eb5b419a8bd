# shellcheck shell=bash
# debfetch DIR RELEASE PACKAGE...: Debian packages of another release,
# unpacked under DIR/root and never installed.
#
# Why: some boots want a newer QEMU (x2APIC under TCG, scripts/qemu-backport.sh)
# or a newer OVMF (scripts/ovmf-fetch.sh) than Debian 12 ships.  apt-get
# downloads them with a sources list and state of their own under DIR, so
# the system's apt configuration is not touched, and dpkg -x unpacks them.
# Every PACKAGE comes in RELEASE's version (apt-cache madison).  Sets
# debfetch_version to the first package's version.  Returns 0, or 1 with a
# message on stderr naming the step that failed (its log: DIR/apt.log).
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

debfetch() {
	local dir=$1 release=$2 pkg deb
	local -a apt_opts specs=()
	shift 2
	if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
		echo "debfetch: needs apt-get and dpkg (Debian)" >&2
		return 1
	fi
	rm -rf "$dir" && mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs"
	echo "deb http://deb.debian.org/debian $release main" >"$dir/apt/sources.list"
	apt_opts=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache"
		-o APT::Sandbox::User=root -q)
	if ! apt-get "${apt_opts[@]}" update >"$dir/apt.log" 2>&1; then
		echo "debfetch: apt-get update of $release failed (see $dir/apt.log)" >&2
		return 1
	fi
	debfetch_version=
	for pkg in "$@"; do
		local v
		v=$(apt-cache "${apt_opts[@]}" madison "$pkg" 2>/dev/null |
			awk -v r="$release" '$0 ~ r { print $3; exit }')
		if [ -z "$v" ]; then
			echo "debfetch: no $pkg in $release" >&2
			return 1
		fi
		specs+=("$pkg=$v")
		[ -n "$debfetch_version" ] || debfetch_version=$v
	done
	if ! (cd "$dir/debs" && apt-get "${apt_opts[@]}" download "${specs[@]}") >>"$dir/apt.log" 2>&1; then
		echo "debfetch: downloading ${specs[*]} failed (see $dir/apt.log)" >&2
		return 1
	fi
	for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root" || return 1; done
	rm -rf "$dir/debs" "$dir/apt/cache"
}
