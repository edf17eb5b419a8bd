#!/usr/bin/env bash
# Builds the LTP tests of a list, static (glibc), from an LTP source, into a
# cache keyed by the source's identity; prints the cache directory.
#
# Usage: tests/sh/ltp/build.sh LTP_SRC LIST [CACHE_ROOT]
#
#   LTP_SRC     an LTP tarball (.tar.gz, .tar.xz, .tar: one top directory
#               holding the tree) or an LTP checkout (a directory)
#   LIST        tests in LTP's runtest format (tests/ltp/tests.txt)
#   CACHE_ROOT  default build/ltp
#
# The cache: CACHE_ROOT/ID/ (ID: the tarball's sha256, or the checkout's git
# commit plus a hash of its uncommitted changes, or, outside git, a hash of
# its files' names, sizes and times).  In it: src/ (a copy of the source,
# built there, the checkout left untouched), bin/ (every executable of each
# directory a listed test lives in, stripped: its helpers come along), and
# dirs.txt ("COMMAND DIRECTORY" for each listed command).  A directory is
# built once: a second run with the same source and list builds nothing.
# Output: the cache directory on stdout; progress and errors on stderr.
# Exit status: 0 built; 1 a build step failed (its log is named);
# 2 bad arguments (no such LTP_SRC, not an LTP source, no LIST).
set -euo pipefail

die() { echo "ltp-build: $*" >&2; exit "${status:-1}"; }
[ $# -ge 2 ] || status=2 die "usage: tests/sh/ltp/build.sh LTP_SRC LIST [CACHE_ROOT]"
src=$1 list=$2 root=${3:-build/ltp}
jobs=${BUILD_JOBS:-$(nproc)}
[ -r "$list" ] || status=2 die "no test list '$list'"

# ---- the source and its identity ----------------------------------------------
if [ -f "$src" ]; then
	# An LTP tarball: one top directory with LTP's library header and runtest files.
	listing=$(tar -tf "$src" 2>/dev/null) ||
		status=2 die "LTP_SRC=$src is not a tar archive tar can read"
	top=$(sed -n 's|^\(\./\)\{0,1\}\([^/]*\)/include/tst_test\.h$|\2|p' <<<"$listing" | head -n 1)
	{ [ -n "$top" ] && grep -q "^\(\./\)\{0,1\}$top/runtest/syscalls\$" <<<"$listing"; } ||
		status=2 die "LTP_SRC=$src is not an LTP tarball (no TOP/include/tst_test.h and TOP/runtest/syscalls in it)"
	id=tar-$(sha256sum "$src" | cut -c1-16)
elif [ -d "$src" ]; then
	{ [ -r "$src/include/tst_test.h" ] && [ -r "$src/runtest/syscalls" ]; } ||
		status=2 die "LTP_SRC=$src is not an LTP checkout (no include/tst_test.h and runtest/syscalls)"
	if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1 &&
		[ "$(cd "$src" && pwd -P)" = "$(cd "$(git -C "$src" rev-parse --show-toplevel)" && pwd -P)" ]; then
		# a git checkout: its commit, and what differs from it
		id=git-$(git -C "$src" rev-parse --short=12 HEAD)
		changes=$( (git -C "$src" diff HEAD; git -C "$src" status --porcelain) | sha256sum | cut -c1-8)
		[ -z "$(git -C "$src" status --porcelain)" ] || id=$id-dirty-$changes
	else
		id=dir-$(cd "$src" && find . -path ./.git -prune -o -type f -printf '%p %s %T@\n' |
			sort | sha256sum | cut -c1-16)
	fi
else
	status=2 die "LTP_SRC=$src: no such file or directory (give an LTP tarball or checkout)"
fi
cache=$root/$id
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
logs=$cache/logs
mkdir -p "$logs" "$cache/bin"

# ---- unpack or copy, configure, the libraries ----------------------------------
if [ ! -e "$cache/.unpacked" ]; then
	echo "ltp-build: copying the source ($src) to $cache/src" >&2
	rm -rf "$cache/src"
	mkdir -p "$cache/src"
	if [ -f "$src" ]; then
		tar -xf "$src" -C "$cache/src" --strip-components=1 "$top" 2>/dev/null ||
			tar -xf "$src" -C "$cache/src" --strip-components=2 "./$top"
	else
		tar -C "$src" --exclude=./.git -cf - . | tar -C "$cache/src" -xf -
	fi
	touch "$cache/.unpacked"
fi
s=$cache/src
step() { # step NAME CMD...: CMD in the source tree once, its output in logs/NAME.log
	local name=$1
	shift
	[ ! -e "$cache/.done-$name" ] || return 0
	echo "ltp-build: $name" >&2
	(cd "$s" && "$@") >"$logs/$name.log" 2>&1 || die "$name failed (log: $logs/$name.log)"
	touch "$cache/.done-$name"
}
# The static glibc recipe: LTP's own configure, then only the libraries the tests link.
step autotools make autotools
step configure ./configure CFLAGS="-static -O2" LDFLAGS=-static
step lib make -j"$jobs" -C lib FILTER_OUT_DIRS="newlib_tests android_libpthread android_librt"
for l in vdso newipc ipc; do step "libs-$l" make -j"$jobs" -C "libs/$l"; done

# ---- each listed command's directory -----------------------------------------
# COMMAND -> the directory under testcases/ holding COMMAND.c (or COMMAND itself,
# a script).  Found once per source (dirs.txt), looked up for the commands added since.
mapfile -t cmds < <(sed -e 's/#.*//' "$list" | awk 'NF >= 2 { print $2 }' | sort -u)
declare -A dir_of=()
touch "$cache/dirs.txt"
while read -r c d; do dir_of[$c]=$d; done <"$cache/dirs.txt"
for c in "${cmds[@]}"; do
	[ -z "${dir_of[$c]:-}" ] || continue
	f=$(cd "$s" && find testcases -name "$c.c" -o -name "$c" -type f | sort | head -n 1)
	[ -n "$f" ] || die "no source of '$c' (listed in $list) under $s/testcases"
	dir_of[$c]=$(dirname "$f")
	echo "$c ${dir_of[$c]}" >>"$cache/dirs.txt"
done
# The directories not built yet, several at once (most hold a few tests, too
# few for make -j alone to keep the CPUs busy); -k: a directory may hold a
# test this machine cannot build (headers), the listed commands are checked
# below.  Then each directory's executables, stripped, into bin/KEY.
declare -A todo=()
for c in "${cmds[@]}"; do
	key=${dir_of[$c]//\//_}
	[ -e "$cache/.done-dir-$key" ] || todo[${dir_of[$c]}]=$key
done
if [ ${#todo[@]} -gt 0 ]; then
	echo "ltp-build: ${#todo[@]} directories, $jobs at a time" >&2
	# shellcheck disable=SC2016 # $1 and $2 are the inner sh's
	printf '%s\n' "${!todo[@]}" | sort |
		(cd "$s" && xargs -P "$jobs" -I{} sh -c 'make -k -C "$1" >"$2/dir-$(echo "$1" | tr / _).log" 2>&1' _ {} "$logs") || true
fi
for d in "${!todo[@]}"; do
	key=${todo[$d]}
	rm -rf "$cache/bin/$key.tmp"
	mkdir -p "$cache/bin/$key.tmp"
	find "$s/$d" -maxdepth 1 -type f -perm -u+x ! -name '*.o' -exec cp {} "$cache/bin/$key.tmp/" \;
	for f in "$cache/bin/$key.tmp"/*; do
		[ "$(head -c 4 "$f")" != $'\x7fELF' ] || strip "$f"
	done
	rm -rf "${cache:?}/bin/${key:?}"
	mv "$cache/bin/$key.tmp" "$cache/bin/$key"
	touch "$cache/.done-dir-$key"
done
missing=""
for c in "${cmds[@]}"; do
	[ -x "$cache/bin/${dir_of[$c]//\//_}/$c" ] || missing+=" $c (${dir_of[$c]})"
done
[ -z "$missing" ] || die "not built:$missing (logs: $logs/dir-*.log)"
echo "$cache"
