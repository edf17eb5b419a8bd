#!/usr/bin/env bash
# One file to send back for a run on real hardware: the log, unchanged,
# under a header of comment lines that say where it came from.
#
# Usage: scripts/bundle.sh LOG [--out FILE]
#
#   LOG         a serial log (scripts/capture-serial.sh, make run) or the
#               log scripts/qr-decode.py made from photos of the QR screen
#   --out FILE  the bundle (default: build/results-DATE.txt)
#   -h, --help  this text on stdout; exit 0
#
# The header ("# " lines): the bundle's format, when it was made, this
# checkout's `git describe`, the machine that made it (kernel, OS, its QEMU
# and OVMF versions when installed), the log's size, SHA-256 and record
# count, and the run's provenance from its boot record (aslrbench version,
# build date, kernel SHA-256, firmware, CPU, mode, command line, warnings,
# and under QEMU the emulator and firmware it names) and its summary.
# scripts/report.py reads a bundle as it reads the log (it skips other
# lines).  Attach the file to a "Hardware results" issue
# (.github/ISSUE_TEMPLATE/hardware-results.md).
#
# Exit status: 0 written; 1 the log holds no "@@ {...}" record (nothing to
# send); 2 usage errors, a log that cannot be read, an output that cannot
# be written.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }
note() { echo "bundle: $*" >&2; }
usage_error() {
	note "$* (see --help)"
	exit 2
}

log="" out=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--out) [ $# -ge 2 ] || usage_error "--out needs a file"; out=$2; shift 2 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) [ -z "$log" ] || usage_error "one log at a time"; log=$1; shift ;;
	esac
done
[ -n "$log" ] || usage_error "no log given"
if [ ! -f "$log" ] || [ ! -r "$log" ]; then usage_error "cannot read the log '$log'"; fi
nrec=$(grep -ac '^@@ {' "$log" || true)
if [ "$nrec" = 0 ]; then
	note "'$log' holds no '@@ {...}' record: not an aslrbench log (a photo decode that failed?)"
	exit 1
fi
[ -n "$out" ] || { mkdir -p "$here/build"; out=$here/build/results-$(date -u +%Y%m%d-%H%M%S).txt; }

# The boot record's and the summary's fields, "key: value" lines.
run_fields() {
	python3 - "$1" <<'EOF'
import json, sys
boot = summary = None
with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    for line in f:
        line = line.rstrip("\r\n")
        if not line.startswith("@@ {"):
            continue
        try:
            rec = json.loads(line[3:])
        except ValueError:
            continue
        if rec.get("type") == "boot" and boot is None:
            boot = rec
        elif rec.get("type") == "summary":
            summary = rec
if boot is None:
    print("run: no boot record in the log")
else:
    for k in ("version", "build_date", "kernel_sha256", "fw_vendor", "secure_boot", "cpu_vendor",
              "cpu_model", "cpus_online", "mode", "rng", "cmdline", "host", "warnings"):
        if k in boot:
            v = boot[k]
            print(f"run.{k}: {v if isinstance(v, str) else json.dumps(v)}")
if summary is None:
    print("run.summary: none (the run did not finish, or the log is cut)")
else:
    print("run.summary: " + ", ".join(f"{k}={v}" for k, v in summary.items() if k != "type"))
EOF
}

qemu_version() { qemu-system-x86_64 --version 2>/dev/null | sed -n '1s/.*version \([^ ]*\).*/\1/p'; }
ovmf_version() {
	cat "$here/build/ovmf/VERSION" 2>/dev/null || dpkg-query -W -f='${Version}' ovmf 2>/dev/null || true
}

{
	echo "# aslrbench results bundle, format 1 (scripts/bundle.sh): the log follows the header unchanged"
	echo "# made: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "# checkout: $(git -C "$here" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "# bundled on: $(uname -srm), $(sed -n 's/^PRETTY_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' /etc/os-release 2>/dev/null)"
	echo "# bundled on, qemu: $(qemu_version || true), ovmf: $(ovmf_version)"
	echo "# log: $(basename "$log"), $(wc -c <"$log") bytes, sha256 $(sha256sum "$log" | cut -d' ' -f1), $nrec records"
	run_fields "$log" | sed 's/^/# /'
	echo "# ---- the log ----"
	cat "$log"
} >"$out.tmp" 2>/dev/null || { rm -f "$out.tmp"; usage_error "cannot write '$out'"; }
mv "$out.tmp" "$out"
note "wrote $out ($nrec records); attach it to a \"Hardware results\" issue"
