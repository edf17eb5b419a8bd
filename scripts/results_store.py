"""The results store: every record of every ingested log in one SQLite file.

Used by report.py (`report.py ingest LOG...`, `report.py --db DB ...`); only
Python's own sqlite3.  Schema (version 1):

    logs    one row per ingested log; `sha256` of its bytes is UNIQUE, so a log
            ingested twice is recognised and skipped (idempotent).
    boots   one row per boot record, with the machine identity (label, CPU
            model, TSC frequency, emulated/deterministic) and the provenance
            (version, build_date, kernel_sha256, firmware, host) pulled out
            into columns for filtering; `json` keeps the whole record.
    records every record (boot records included) in log order, tied to the
            boot it follows (`boot_id` NULL before the first boot record).

Dates: logs older than the boot record's `time` (the RTC's, or bench-host's
clock) carry no wall-clock time, so the date filters apply to when a log was
ingested (`logs.ingested_at`, UTC), the same for every log.
"""

import datetime
import hashlib
import json
import os
import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS logs (
    id INTEGER PRIMARY KEY, sha256 TEXT NOT NULL UNIQUE, path TEXT NOT NULL,
    ingested_at TEXT NOT NULL, machine_override TEXT, nrecords INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS boots (
    id INTEGER PRIMARY KEY, log_id INTEGER NOT NULL REFERENCES logs(id),
    seq INTEGER NOT NULL, machine TEXT NOT NULL, cpu_vendor TEXT, cpu_model TEXT,
    tsc_hz REAL, emulated INTEGER NOT NULL, deterministic INTEGER NOT NULL,
    platform TEXT, mode TEXT, rng TEXT, version TEXT, build_date TEXT,
    kernel_sha256 TEXT, fw_vendor TEXT, host TEXT, cmdline TEXT, json TEXT NOT NULL,
    UNIQUE (log_id, seq));
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY, log_id INTEGER NOT NULL REFERENCES logs(id),
    boot_id INTEGER REFERENCES boots(id), seq INTEGER NOT NULL, line INTEGER,
    type TEXT NOT NULL, suite TEXT, rng TEXT, metric TEXT, json TEXT NOT NULL,
    UNIQUE (log_id, seq));
CREATE INDEX IF NOT EXISTS records_type ON records(type, suite, metric);
"""
SCHEMA_VERSION = "1"


class StoreError(Exception):
    """A database that cannot be opened or is not ours."""


def open_db(path, create):
    """Open (and with create, make) the store; raises StoreError."""
    if not create and not os.path.exists(path):
        raise StoreError(f"{path}: no such database (make one with `report.py ingest`)")
    if create:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    try:
        db = sqlite3.connect(path)
        db.row_factory = sqlite3.Row
        db.executescript(SCHEMA)
        row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            db.commit()
        elif row[0] != SCHEMA_VERSION:
            raise StoreError(f"{path}: schema {row[0]}, this report.py knows {SCHEMA_VERSION}")
    except sqlite3.DatabaseError as err:
        raise StoreError(f"{path}: not a usable SQLite database ({err})") from None
    return db


def machine_label(boot, override, fallback):
    """The name a machine goes by in tables and legends."""
    if override:
        return override
    model = boot.get("cpu_model") if boot else None
    return str(model).strip() if model else fallback


def ingest(db, log, data, machine, is_emulated, is_deterministic):
    """Store one parsed log (report.Log) whose raw bytes are `data`.
    Returns (log_id, added): added is False when the same bytes were
    ingested before (nothing is written then)."""
    digest = hashlib.sha256(data).hexdigest()
    old = db.execute("SELECT id FROM logs WHERE sha256=?", (digest,)).fetchone()
    if old:
        return old[0], False
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    with db:  # one transaction: a log is stored whole or not at all
        cur = db.execute("INSERT INTO logs (sha256, path, ingested_at, machine_override, "
                         "nrecords) VALUES (?,?,?,?,?)",
                         (digest, log.name, now, machine, len(log.records)))
        log_id = cur.lastrowid
        boot_id, nboot = None, 0
        fallback = os.path.basename(log.name)
        for seq, rec in enumerate(log.records):
            body = {k: v for k, v in rec.items() if k not in ("source", "source_line")}
            text = json.dumps(body, separators=(",", ":"), allow_nan=False, default=str)
            if rec["type"] == "boot":
                g = rec.get
                cur = db.execute(
                    "INSERT INTO boots (log_id, seq, machine, cpu_vendor, cpu_model, tsc_hz, "
                    "emulated, deterministic, platform, mode, rng, version, build_date, "
                    "kernel_sha256, fw_vendor, host, cmdline, json) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (log_id, nboot, machine_label(rec, machine, fallback),
                     scalar(g("cpu_vendor")), scalar(g("cpu_model")), number(g("tsc_hz")),
                     int(is_emulated(rec)), int(bool(is_deterministic(rec))),
                     scalar(g("platform")), scalar(g("mode")), scalar(g("rng")),
                     scalar(g("version")), scalar(g("build_date")),
                     scalar(g("kernel_sha256")), scalar(g("fw_vendor")), scalar(g("host")),
                     scalar(g("cmdline")), text))
                boot_id, nboot = cur.lastrowid, nboot + 1
            db.execute("INSERT INTO records (log_id, boot_id, seq, line, type, suite, rng, "
                       "metric, json) VALUES (?,?,?,?,?,?,?,?,?)",
                       (log_id, boot_id, seq, rec.get("source_line"), rec["type"],
                        scalar(rec.get("suite")), scalar(rec.get("rng")),
                        scalar(rec.get("metric")), text))
    return log_id, True


def scalar(v):
    return None if v is None or isinstance(v, (dict, list)) else str(v)


def number(v):
    try:
        return None if isinstance(v, bool) or v is None else float(v)
    except (TypeError, ValueError):
        return None


def select_logs(db, machine=None, version=None, since=None, until=None):
    """Ids of the logs whose boots match the filters, in ingest order.
    machine: case-insensitive substring of the machine label or CPU model;
    version: exact `version` or its prefix (e.g. a tag without -N-gHASH);
    since/until: YYYY-MM-DD bounds (inclusive) on the ingest date."""
    sql = "SELECT DISTINCT l.id FROM logs l LEFT JOIN boots b ON b.log_id = l.id WHERE 1"
    args = []
    if machine:
        sql += " AND (instr(lower(b.machine), lower(?)) OR instr(lower(b.cpu_model), lower(?)))"
        args += [machine, machine]
    if version:
        sql += " AND (b.version = ? OR b.version LIKE ? || '-%')"
        args += [version, version]
    if since:
        sql += " AND substr(l.ingested_at, 1, 10) >= ?"
        args.append(since)
    if until:
        sql += " AND substr(l.ingested_at, 1, 10) <= ?"
        args.append(until)
    return [r[0] for r in db.execute(sql + " ORDER BY l.id", args)]


def load_log_records(db, log_id, variant=None):
    """(path, machine_override, [record dicts]) of one stored log; with
    variant, bench/aslr/attack records of other variants are left out."""
    row = db.execute("SELECT path, machine_override FROM logs WHERE id=?", (log_id,)).fetchone()
    out = []
    for rec in db.execute("SELECT line, json, rng FROM records WHERE log_id=? ORDER BY seq",
                          (log_id,)):
        body = json.loads(rec["json"])
        if variant and body.get("type") in ("bench", "aslr", "attack") and rec["rng"] != variant:
            continue
        out.append(dict({"source": row["path"], "source_line": rec["line"]}, **body))
    return row["path"], row["machine_override"], out


def known_variants(db):
    """The rng variants of the stored bench/aslr/attack records, sorted."""
    return [r[0] for r in db.execute(
        "SELECT DISTINCT rng FROM records WHERE type IN ('bench', 'aslr', 'attack') "
        "AND rng IS NOT NULL AND rng != '' ORDER BY rng")]


def summary_rows(db, log_ids):
    """One row per boot of the selected logs, for `report.py --db DB --list`."""
    if not log_ids:
        return []
    marks = ",".join("?" * len(log_ids))
    return db.execute(
        f"SELECT l.id AS log, l.path, l.ingested_at, b.machine, b.tsc_hz, b.emulated, "
        f"b.deterministic, b.version, b.mode, b.rng, "
        f"(SELECT count(*) FROM records r WHERE r.boot_id = b.id) AS nrecords "
        f"FROM logs l LEFT JOIN boots b ON b.log_id = l.id WHERE l.id IN ({marks}) "
        f"ORDER BY l.id, b.seq", log_ids).fetchall()
