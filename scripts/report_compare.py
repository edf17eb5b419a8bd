"""report.py --compare: runs side by side, and what changed from the first.

One column per log (A, B, ...), one row per (suite, rng, metric), the median
in each cell; then one change column per log after the first: its median ÷
A's, with a 95 % interval.

The interval.  Each bench record carries its per-ensemble medians
(`ens_medians`, bench/harness.c); scipy.stats.bootstrap resamples the two
runs' ensemble medians independently (paired=False), takes the ratio of the
resamples' medians, and reports the percentile interval.  This mirrors
criterion.rs's change estimate (src/analysis/compare.rs: both samples
resampled apart, the relative change of the medians, a 95 % interval; a
change counts when its interval excludes "no change"), applied to ensembles
rather than samples because successive samples of one ensemble are not
independent (caches, the timer tick).  Why a bootstrap and not hyperfine's
"ratio ± error propagated from the standard deviations": that assumes
normal noise, and cycle counts are skewed with heavy tails; why the
percentile method and not BCa: BCa's jackknife breaks down on identical
values (deterministic runs, a ratio of exactly 1) and is unstable on the
5 to 10 ensembles a run has.  The seed is fixed, so the same logs give the
same page.  What the interval covers: the noise between the ensembles of
each run, not a drift between runs (load, frequency, the emulator).
"""

from report_logs import fmt, md_table, num, of_type, run_labels, run_time
import report_plots

LEVEL = 0.95
RESAMPLES = 10000
SEED = 20090513     # fixed: the same logs give the same intervals (any value would do)
MIN_ENSEMBLES = 3   # fewer: a bootstrap has too few distinct resamples to mean much
NO_ENS = "no interval (old log: no per-ensemble medians)"
UP, DOWN = "▲", "▼"
OUTSIDE = "†"       # the whole-run ratio outside the ensembles' interval


def first_boot(lg, key):
    return next((b.get(key) for b in lg.boots()), None)


def letters(n):
    return [chr(ord("A") + i) if i < 26 else f"Z{i - 25}" for i in range(n)]


def ens_medians(r):
    """The record's per-ensemble medians as floats; None if it has none."""
    vals = r.get("ens_medians")
    if not isinstance(vals, list):
        return None
    vals = [num(v) for v in vals]
    return None if any(v is None for v in vals) else vals


def ratio_interval(base, other):
    """(low, high): the 95 % percentile bootstrap interval of
    median(other) / median(base) over the ensemble medians; None (with why)
    when there is none to give."""
    try:
        import numpy as np
        from scipy import stats
    except ImportError as err:
        return None, f"no interval (numpy/scipy unavailable: {err.name})"
    if min(len(base), len(other)) < MIN_ENSEMBLES:
        return None, f"no interval (fewer than {MIN_ENSEMBLES} ensembles)"
    if min(base) <= 0:
        return None, "no interval (an ensemble median of the baseline is 0)"

    def ratio(a, b, axis=-1):
        return np.median(b, axis=axis) / np.median(a, axis=axis)

    res = stats.bootstrap((np.array(base), np.array(other)), ratio, paired=False,
                          vectorized=True, method="percentile", n_resamples=RESAMPLES,
                          confidence_level=LEVEL, random_state=np.random.default_rng(SEED))
    return (float(res.confidence_interval.low), float(res.confidence_interval.high)), None


def fmt_ratio(x):
    """Two decimals (1.00, 0.95, 12.34), three significant digits below 0.1."""
    return f"{x:.2f}" if x >= 0.1 else f"{x:.3g}"


def change_cell(base, other, base_step, other_step):
    """The change column's cell for one row: ratio, interval, significance."""
    if base is None or other is None:
        return None
    b, o = num(base.get("median")), num(other.get("median"))
    if b is None or o is None:
        return None
    if report_plots.below_resolution(base, base_step) is not None or \
            report_plots.below_resolution(other, other_step) is not None:
        return "– (below resolution)"
    if b <= 0:
        return "– (baseline median 0)"
    ratio = fmt_ratio(o / b)
    eb, eo = ens_medians(base), ens_medians(other)
    if eb is None or eo is None:
        return f"{ratio}× {NO_ENS}"
    ci, why = ratio_interval(eb, eo)
    if ci is None:
        return f"{ratio}× {why}"
    lo, hi = fmt_ratio(ci[0]), fmt_ratio(ci[1])
    text = f"{ratio}× ({lo}–{hi})"
    # Decided on the bounds as printed, so that what is bold reads as excluding 1.
    if float(lo) > 1 or float(hi) < 1:
        text = f"**{text} {UP if float(lo) > 1 else DOWN}**"
    if not float(lo) <= float(ratio) <= float(hi):
        text += " " + OUTSIDE
    return text


def legend(cells, capped):
    out = [f"**Change** (`B ÷ A`, one column per run after A): that run's median divided by "
           f"run A's (the baseline), with its {LEVEL:.0%} interval in brackets: a bootstrap "
           f"over the two runs' per-ensemble medians ({RESAMPLES:,} resamples, fixed seed; "
           "`scripts/report_compare.py` says why).  "
           f"**Bold {UP}/{DOWN}**: the interval excludes 1.00: a larger ({UP}) or smaller ({DOWN}) "
           "median than A's beyond the noise between ensembles.  The interval does not cover "
           "what changes between runs (load, clock, the emulator)."]
    if any(OUTSIDE in str(c) for c in cells):
        out.append(f"{OUTSIDE}: the ratio of the whole runs' medians lies outside the interval "
                   "drawn from their ensembles' medians: the ensembles disagree more than "
                   "the interval shows.")
    if any(NO_ENS in str(c) for c in cells):
        out.append(f"_{NO_ENS}_: a log written before bench records carried `ens_medians`; "
                   "its ratio is given without an interval.")
    if capped:
        out.append("Records of more than 64 ensembles carry the first 64 ensembles' medians "
                   "(`ens_medians_capped`): their intervals come from those.")
    return out


def compare_markdown(logs):
    keys, cols = [], []
    for lg in logs:
        col = {}
        for r in of_type(lg.records, "bench"):
            key = (r.get("suite"), r.get("rng"), r.get("metric"))
            if key not in keys:
                keys.append(key)
            col[key] = r  # a repeated key: the last run wins
        cols.append(col)
    keys = [k for k in keys if any(num(c[k].get("median")) is not None
                                   for c in cols if k in c)]
    ids = letters(len(logs))
    labels = run_labels(logs)
    heads = [f"{i}: {lab}" + (" ⚠" if lg.emulated() else "")
             for i, lab, lg in zip(ids, labels, logs)]
    steps = [{"tsc_step": first_boot(lg, "tsc_step")} for lg in logs]

    def cell(col, key, step):
        r = col.get(key)
        if r is None:
            return None
        res = report_plots.below_resolution(r, step)
        return r.get("median") if res is None else \
            f"{fmt(r.get('median'))} ⚠ below resolution (< {report_plots.fmt_val(res)})"

    def ns_cell(col, key, lg):
        r, hz = col.get(key), num(first_boot(lg, "tsc_hz"))
        if r is None or not hz or lg.emulated() or lg.deterministic() or \
                not str(key[2]).startswith("cycles") or num(r.get("median")) is None:
            return None
        res = report_plots.below_resolution(r, {"tsc_step": first_boot(lg, "tsc_step")})
        if res is not None:
            return f"⚠ below resolution (< {res * 1e9 / hz:.3g})"
        return f"{num(r.get('median')) * 1e9 / hz:.3g}"

    rows, changes = [], []
    for k in keys:
        ch = [change_cell(cols[0].get(k), c.get(k), steps[0], st)
              for c, st in zip(cols[1:], steps[1:])]
        changes += ch
        rows.append(list(k) + [cell(c, k, st) for c, st in zip(cols, steps)] + ch)
    ns_rows = [list(k) + [ns_cell(c, k, lg) for c, lg in zip(cols, logs)] for k in keys]
    capped = any(r.get("ens_medians_capped") for c in cols for r in c.values())

    lines = ["# aslrbench: machines compared (median)", ""]
    # The columns' labels are the machine plus, where it takes that, time,
    # version and file: this table gives all of them for every run.
    lines += [md_table(["run", "machine", "time", "version", "log", "tsc_hz", "emulated",
                        "kernel_sha256"],
                       [(i, lg.machine(), run_time(next(iter(lg.boots()), None), True),
                         first_boot(lg, "version"), lg.name, first_boot(lg, "tsc_hz"),
                         lg.emulated(), (first_boot(lg, "kernel_sha256") or "")[:12])
                        for i, lg in zip(ids, logs)]), ""]
    if any(lg.emulated() for lg in logs):
        lines += ["> **⚠ Columns marked ⚠ come from emulated runs: their cycle figures "
                  "measure the emulator, not the guest.**", ""]
    change_heads = [f"{i} ÷ A ({LEVEL:.0%} interval)" for i in ids[1:]]
    lines += [md_table(["suite", "rng", "metric"] + heads + change_heads, rows) if rows
              else "_No bench records in any log._", ""]
    if rows and len(logs) > 1:
        lines += [ln for item in legend(changes, capped) for ln in (item, "")]
    if any(any(c is not None for c in r[3:]) for r in ns_rows):
        lines += ["### Median in nanoseconds", "",
                  "Cycles ÷ the machine's `tsc_hz`: the unit in which machines with different "
                  "clocks compare.  Emulated and deterministic runs have no meaningful time "
                  "(–).", "", md_table(["suite", "rng", "metric"] + heads, ns_rows), ""]
    return lines
