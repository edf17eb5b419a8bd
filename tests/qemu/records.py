#!/usr/bin/env python3
"""Reads what scripts/test.sh needs out of a QEMU boot log.

  records.py tests LOG       one line per kernel test record
                             ("@@ {"type":"test",...}"): NAME<TAB>RESULT<TAB>DETAIL
  records.py stat-28-30 LOG  fields 28, 29 and 30 (startstack, kstkesp,
                             kstkeip) of the first "1 (init) ..." line, the
                             output of `cat /proc/1/stat` in the shell
  records.py fork LOG        one line per fork bench record: RNG<TAB>MEDIAN
                             <TAB>RNG_CYCLES<TAB>PT_PAGES<TAB>PAGES_COPIED
                             (medians; "-" for a field the record lacks)
  records.py scale LOG       one line per scale bench record (ring3_ before a ring-3 rate): RNG<TAB>CPUS
                             <TAB>METRIC<TAB>VALUE, VALUE the median of
                             calls_per_sec, else the exact mean per call; a
                             ring-3 rate adds METRIC_kernel_locks, the big
                             kernel lock's acquisitions per call, and
                             METRIC_faults_unlocked, the page faults per
                             call resolved without it
Exit status 0; 2 on bad arguments or an unreadable log.
"""
import json
import sys


def lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        yield from f


def flat(value):
    # One TAB-separated line per record: no tabs or newlines inside a field.
    return " ".join(str(value).split())


def records(path):
    """Every "@@ {json}" record of a log that parses to an object."""
    for raw in lines(path):
        i = raw.find("@@ ")
        if i < 0:
            continue
        try:
            r = json.loads(raw[i + 3:])
        except ValueError:
            continue
        if isinstance(r, dict):
            yield r


def tests(path):
    for r in records(path):
        if r.get("type") == "test":
            print(f'{flat(r.get("name"))}\t{flat(r.get("result"))}\t{flat(r.get("detail", ""))}')


def fork(path):
    keys = ("median", "rng_cycles_median", "pt_pages_median", "pages_copied_median",
            "locked_cycles_median")
    for r in records(path):
        if r.get("type") == "bench" and r.get("suite") == "fork":
            print("\t".join([flat(r.get("rng"))] + [flat(r.get(k, "-")) for k in keys]))


def scale(path):
    for r in records(path):
        if r.get("type") == "bench" and r.get("suite") == "scale":
            key = "median" if flat(r.get("metric")).endswith("_per_sec") else "mean_exact"
            metric = ("ring3_" if r.get("mode") == "ring3" else "") + flat(r.get("metric"))
            print("\t".join([flat(r.get("rng")), flat(r.get("cpus")), metric, flat(r.get(key, "-"))]))
            if r.get("mode") == "ring3":  # the big kernel lock's acquisitions per call
                print("\t".join([flat(r.get("rng")), flat(r.get("cpus")), metric + "_kernel_locks",
                                  flat(r.get("kernel_lock_acquisitions_per_call", "-"))]))
                print("\t".join([flat(r.get("rng")), flat(r.get("cpus")), metric + "_faults_unlocked",
                                  flat(r.get("faults_unlocked_per_call", "-"))]))
                print("\t".join([flat(r.get("rng")), flat(r.get("cpus")), metric + "_kernel_held",
                                  flat(r.get("kernel_lock_held_cycles_per_call", "-"))]))


def stat_28_30(path):
    for raw in lines(path):
        line = raw.strip()
        if line.startswith("1 (init) "):
            f = line[line.rindex(")") + 2:].split()
            if len(f) >= 28:
                print(f[25], f[26], f[27])  # fields 28, 29, 30 (field 3 is f[0])
            break


def main(argv):
    cmds = {"tests": tests, "stat-28-30": stat_28_30, "fork": fork, "scale": scale}
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 3 or argv[1] not in cmds:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        cmds[argv[1]](argv[2])
    except OSError as e:
        print(f"records.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
