#!/usr/bin/python3
"""Turn aslrbench serial logs into CSV, JSON, Markdown/HTML reports, plots and
a results store.

usage:
  report.py LOG... [--out DIR] [--html]        full report of the logs
  report.py --compare LOG... [--out DIR] [--html]
                                               runs side by side, with each run's change
                                               from the first and its 95 % interval
                                               (compare.md)
  report.py ingest [--db DB] [--machine NAME] LOG...
                                               add the logs to the results store
  report.py --db DB [--list] [FILTERS] [--compare] [--html] [--out DIR]
                                               report/compare what the store holds
  report.py paxtest [--host LINUXLOG] LOG...   the paxtest table on stdout (Markdown)
FILTERS: --machine TEXT (substring of the machine name or CPU model),
  --variant NAME (bench/aslr/attack records of that rng only), --version V
  (exact, or a tag's later builds V-N-gHASH), --since/--until YYYY-MM-DD
  (the ingest date: older logs carry no wall-clock time).

Outputs in DIR (default build/report): results.csv, results.json, report.md
(or compare.md), one PNG per plot, and with --html report.html (compare.html):
one self-contained page, the plots embedded.  The store (default
results/aslrbench.sqlite) keeps every record with its boot's provenance and
the machine's identity; ingesting the same log twice adds nothing.  A
machine is named by its CPU model unless `ingest --machine NAME` says better
(two boxes with the same CPU).

`report.py paxtest` tabulates the logs' `paxtest` records: one row per
paxtest test, one column per grid point (rng, profile, randomize_va_space,
aslr_rules), the quality bits or "none"; --host adds a column for a plain
`paxtest` log of Linux.  report.md has the same table when the logs have
paxtest records.

Bad records are warned about on stderr (`report: warning: LOG:LINE: reason`)
and skipped.  Exit status: 0 done; 1 no record found; 2 a usage error, an
unreadable log or an unusable database.  Plots need python3-matplotlib (Debian's
/usr/bin/python3); without it they are skipped and stderr says so.  The
comparison's intervals need numpy and scipy (python3-numpy, python3-scipy);
without them each ratio says "no interval" and why.
"""

import argparse
import os
import sys

import report_compare
import report_html
import report_md
import report_paxtest
import results_store
from report_logs import PROG, Log, is_emulated, flag, read_log, write_csv, write_json

DEFAULT_DB = "results/aslrbench.sqlite"


def err(msg):
    print(f"{PROG}: error: {msg}", file=sys.stderr)


def load(paths):
    """Read every log; returns (logs, raw bytes per log, ok)."""
    logs, datas, ok = [], [], True
    for path in paths:
        try:
            with open(path, "rb") as fh:
                datas.append(fh.read())
            logs.append(read_log(path))
        except OSError as e:
            err(f"{path}: cannot read: {e.strerror or e}")
            ok = False
            if len(datas) > len(logs):
                datas.pop()
    return logs, datas, ok


def cmd_ingest(argv):
    ap = argparse.ArgumentParser(prog="report.py ingest", description=(
        "Append every record of each LOG, with its boot's provenance and the machine's "
        "identity, to the SQLite results store.  A log whose bytes were ingested before "
        "is skipped, so ingesting twice adds nothing."))
    ap.add_argument("logs", nargs="+", metavar="LOG")
    ap.add_argument("--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})")
    ap.add_argument("--machine", metavar="NAME",
                    help="name the machine (default: the boot record's cpu_model)")
    args = ap.parse_args(argv)
    try:
        db = results_store.open_db(args.db, create=True)
    except (results_store.StoreError, OSError) as e:
        err(str(e))
        return 2
    logs, datas, ok = load(args.logs)
    added = 0
    for lg, data in zip(logs, datas):
        if not lg.records:
            print(f"{PROG}: warning: {lg.name}: no record found, not ingested", file=sys.stderr)
            continue
        log_id, new = results_store.ingest(db, lg, data, args.machine, is_emulated,
                                           lambda b: flag(b.get("deterministic")))
        lg.machine_override = args.machine
        what = "ingested" if new else "already in the store, skipped"
        print(f"{PROG}: {lg.name}: {what} (log {log_id}, {len(lg.records)} records, "
              f"machine {lg.machine()})", file=sys.stderr)
        added += new
    print(f"{PROG}: {added} log(s) added to {args.db}", file=sys.stderr)
    return 0 if ok else 2


def cmd_paxtest(argv):
    ap = argparse.ArgumentParser(prog="report.py paxtest", description=(
        "The paxtest table (Markdown, stdout) of the `paxtest` records of each LOG: one "
        "row per paxtest test, one column per (rng, profile, randomize_va_space, "
        "aslr_rules), quality bits or \"none\".  Exit status: 0 table written; 1 no "
        "paxtest record (and no --host log); 2 a usage error or an unreadable log."))
    ap.add_argument("logs", nargs="*", metavar="LOG")
    ap.add_argument("--host", metavar="LINUXLOG",
                    help="a log of `paxtest MODE LOG` on Linux: one more column")
    args = ap.parse_args(argv)
    if not args.logs and not args.host:
        ap.error("no LOG given")
    logs, _, ok = load(args.logs)
    host = None
    if args.host:
        try:
            host = report_paxtest.host_results(args.host)
        except OSError as e:
            err(f"{args.host}: cannot read: {e.strerror or e}")
            return 2
    records = [r for lg in logs for r in lg.records]
    lines = report_paxtest.table(records, host, warn=report_paxtest.warn_stderr(PROG))
    if not ok:
        return 2
    if not lines:
        err(f"no paxtest record in {', '.join(args.logs)}")
        return 1
    print("\n".join(lines))
    return 0


def logs_from_db(args):
    """Log objects rebuilt from the store, filtered; None after an error."""
    try:
        db = results_store.open_db(args.db, create=False)
    except results_store.StoreError as e:
        err(str(e))
        return None, None
    ids = results_store.select_logs(db, args.machine, args.version, args.since, args.until)
    if args.variant:
        # A misspelt variant would silently give a report of boot and test
        # records only: refuse it and name the values the store holds.
        known = results_store.known_variants(db)
        if args.variant not in known:
            err(f"--variant {args.variant}: no such variant in {args.db}; known: "
                f"{', '.join(known) or '(none)'}")
            return None, None
    logs = []
    for log_id in ids:
        path, machine, records = results_store.load_log_records(db, log_id, args.variant)
        lg = Log(path, machine)
        lg.records = records
        logs.append(lg)
    return db, logs


def list_db(db, logs_ids):
    rows = results_store.summary_rows(db, logs_ids)
    print("log\tingested\tmachine\ttsc_hz\temulated\tdeterministic\tversion\tmode\trng"
          "\trecords\tpath")
    for r in rows:
        print("\t".join("" if r[k] is None else str(r[k]) for k in (
            "log", "ingested_at", "machine", "tsc_hz", "emulated", "deterministic", "version",
            "mode", "rng", "nrecords", "path")))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "ingest":
        return cmd_ingest(argv[1:])
    if argv and argv[0] == "paxtest":
        return cmd_paxtest(argv[1:])
    ap = argparse.ArgumentParser(prog="report.py",
                                 description=__doc__.split("\n\n")[0].replace("\n", " "),
                                 usage="\n" + __doc__.split("usage:\n")[1].split("\n\n")[0].replace("%", "%%"),
                                 # the usage paragraph is the usage= above: not twice
                                 epilog="\n\n".join(__doc__.split("\n\n")[2:]),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("logs", nargs="*", metavar="LOG", help="serial log file(s)")
    ap.add_argument("--out", default="build/report", metavar="DIR",
                    help="output directory (default build/report)")
    ap.add_argument("--compare", action="store_true",
                    help="compare.md (+ plots): one column per log, median per "
                    "(suite, rng, metric), each log's change from the first with a 95%% "
                    "interval")
    ap.add_argument("--html", action="store_true",
                    help="also write report.html / compare.html (self-contained)")
    ap.add_argument("--db", metavar="DB", help="report from the results store instead of logs")
    ap.add_argument("--list", action="store_true", help="with --db: list the stored boots")
    ap.add_argument("--machine", help="with --db: machine name/CPU model substring")
    ap.add_argument("--variant", help="with --db: one rng variant")
    ap.add_argument("--version", help="with --db: build version (or tag prefix)")
    ap.add_argument("--since", metavar="YYYY-MM-DD", help="with --db: ingested on or after")
    ap.add_argument("--until", metavar="YYYY-MM-DD", help="with --db: ingested on or before")
    args = ap.parse_args(argv)
    filters = [f for f in ("list", "machine", "variant", "version", "since", "until")
               if getattr(args, f)]
    if args.db and args.logs:
        ap.error("give either LOG files or --db DB, not both")
    if not args.db and filters:
        ap.error(f"--{filters[0]} needs --db DB")
    if not args.db and not args.logs:
        ap.error("no LOG given (or --db DB)")
    for d in ("since", "until"):
        v = getattr(args, d)
        if v and not (len(v) == 10 and v[4] == v[7] == "-" and v.replace("-", "").isdigit()):
            ap.error(f"--{d} wants YYYY-MM-DD, not '{v}'")

    ok = True
    if args.db:
        db, logs = logs_from_db(args)
        if logs is None:
            return 2
        if args.list:
            list_db(db, [i for i in results_store.select_logs(
                db, args.machine, args.version, args.since, args.until)])
            return 0
        sources = f"{args.db} (filtered)" if filters else args.db
    else:
        logs, _, ok = load(args.logs)
        sources = ", ".join(args.logs)
    records = [r for lg in logs for r in lg.records]
    if not records and not ok:
        return 2                  # the read error has been reported
    if not records:
        err(f"no `@@ ` record found in {sources}")
        return 1
    for lg in logs:
        if not lg.records:
            print(f"{PROG}: warning: {lg.name}: no record found", file=sys.stderr)
    logs = [lg for lg in logs if lg.records]
    try:
        os.makedirs(args.out, exist_ok=True)
        if args.compare:
            lines = report_compare.compare_markdown(logs)
            plot_lines, _ = report_md.report_plots.make_plots(records, logs, args.out, PROG)
            lines += plot_lines
            text = "\n".join(lines).rstrip() + "\n"
            with open(os.path.join(args.out, "compare.md"), "w", encoding="utf-8") as fh:
                fh.write(text)
            sys.stdout.write(text)
            name = "compare.html"
        else:
            write_csv(records, os.path.join(args.out, "results.csv"))
            write_json(records, os.path.join(args.out, "results.json"))
            lines, _ = report_md.write_report(logs, records, args.out,
                                              os.path.join(args.out, "report.md"))
            print(f"{PROG}: {len(records)} records from {len(logs)} log(s) → {args.out}/",
                  file=sys.stderr)
            name = "report.html"
        if args.html:
            path = report_html.write_html(lines, args.out, name, "aslrbench " + name[:-5])
            print(f"{PROG}: wrote {path}", file=sys.stderr)
    except OSError as e:
        err(f"cannot write to {args.out}: {e}")
        return 2
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
