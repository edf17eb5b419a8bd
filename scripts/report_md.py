"""The Markdown report and the machine comparison of report.py."""

import report_paxtest
import report_plots
from report_logs import (BASELINE, PROG, REGION_ORDER, SUITE_ORDER, flag, fmt, md_table,
                         multi_source, num, of_type, ordered, vm_note)

# ---------------------------------------------------------- report sections --

BOOT_KEYS = ("platform", "cpu_vendor", "cpu_model", "tsc_hz", "invariant_tsc",
             "hz", "rng", "mode", "deterministic", "hypervisor", "emulated")


def section_warning(logs):
    emu = [lg.name for lg in logs if lg.emulated()]
    if not emu:
        return []
    return ["> **⚠ WARNING: emulated run.** " + ", ".join(f"`{n}`" for n in emu) +
            (" was" if len(emu) == 1 else " were") +
            " produced under a hypervisor/emulator without deterministic mode: "
            "**cycle figures measure the emulator, not the guest.** Use them for "
            "nothing but smoke testing; real costs come from real hardware, the "
            "host build (`make bench-host`) or `--deterministic` runs.", ""]


def section_boot(logs):
    out = ["## Machine", ""]
    for lg in logs:
        boots = lg.boots()
        if not boots:
            out += [f"_{lg.name}: no boot record._", ""]
        for i, b in enumerate(boots):
            title = f"`{lg.name}`" + (f" (boot {i + 1})" if len(boots) > 1 else "")
            keys = [k for k in BOOT_KEYS if k in b]
            keys += [k for k in b if k not in keys and k not in ("type", "source", "source_line")]
            rows = [(k, b[k]) for k in keys]
            tsc = num(b.get("tsc_hz"))
            if tsc:
                rows.insert(keys.index("tsc_hz") + 1, ("tsc_ghz", round(tsc / 1e9, 3)))
            if vm_note(b):
                rows.append(("note", "host run inside a virtual machine: cycle counts "
                             "include virtualisation effects"))
            if flag(b.get("deterministic")):
                rows.append(("note", "deterministic: one cycle = one guest instruction; "
                             "figures are for regression comparison"))
            out += [f"### {title}", "", md_table(["field", "value"], rows), ""]
    return out


def ens_samples(r):
    if r.get("ensembles") is None and r.get("samples") is None:
        return None
    return f"{fmt(r.get('ensembles'))}×{fmt(r.get('samples'))}"


def suite_caveat(rows, logs):
    """Heading suffix saying what the cycle figures of these rows mean."""
    srcs = {r["source"] for r in rows}
    if any(lg.name in srcs and lg.emulated() for lg in logs):
        return " (⚠ emulated)"
    if any(lg.name in srcs and lg.deterministic() for lg in logs):
        return " (deterministic: 1 cycle = 1 instruction)"
    return ""


# Optional bench columns, shown only when some record of the suite has them.
BENCH_EXTRA = ("unit", "secure", "rng_share_pct", "cpus", "mean_exact")


def bench_row(r, extra, base, step=None):
    """One bench table row (without the log column).  A median below the
    counter's resolution is flagged, never shown as a plain 0."""
    variant = r.get("rng")
    res = report_plots.below_resolution(r, {"tsc_step": step})
    med = r.get("median") if res is None else \
        f"{fmt(r.get('median'))} ⚠ below resolution (< {report_plots.fmt_val(res)})"
    if flag(r.get("available")) is False:
        variant = f"{fmt(variant)} (unavailable)"
    row = [variant, r.get("metric"), r.get("min"), med, r.get("mean"),
           r.get("p99"), r.get("max"), r.get("var"), ens_samples(r)]
    row += [r.get(k) for k in extra]
    if base:
        b, m = base.get((r["source"], r.get("metric"))), num(r.get("median"))
        row.append(f"{m / b:.2f}×" if b and m is not None and res is None else None)
    return row


def section_bench(records, logs):
    bench = of_type(records, "bench")
    out = ["## Benchmarks", ""]
    if not bench:
        return out + ["_No bench records._", ""]
    multi = multi_source(records)
    emu = {lg.name for lg in logs if lg.emulated()}
    steps = {lg.name: next((b.get("tsc_step") for b in lg.boots()), None) for lg in logs}
    suites = sorted({str(r.get("suite", "?")) for r in bench}, key=ordered(SUITE_ORDER))
    for suite in suites:
        rows = [r for r in bench if str(r.get("suite", "?")) == suite]
        metrics = list(dict.fromkeys(str(r.get("metric")) for r in rows))
        rows.sort(key=lambda r: metrics.index(str(r.get("metric"))))  # stable: log order
        base = {(r["source"], r.get("metric")): num(r.get("median")) for r in rows
                if r.get("rng") == BASELINE and num(r.get("median"))
                and suite != "scale"}  # scale: one median per CPU count, no single base
        extra = [k for k in BENCH_EXTRA if any(k in r for r in rows)]
        head = (["log"] if multi else []) + ["variant", "metric", "min", "median", "mean",
                                             "p99", "max", "var", "ensembles×samples"]
        head += extra + ([f"vs {BASELINE}"] if base else [])
        body = [([r["source"] + (" ⚠" if r["source"] in emu else "")] if multi else [])
                + bench_row(r, extra, base, steps.get(r["source"])) for r in rows]
        out += [f"### Suite `{suite}`{suite_caveat(rows, logs)}", "", md_table(head, body), ""]
    return out


def section_aslr(records):
    aslr = of_type(records, "aslr")
    out = ["## ASLR entropy", ""]
    if not aslr:
        return out + ["_No aslr records._", ""]
    multi = multi_source(records)
    first = {}
    for r in aslr:
        first.setdefault((r["source"], r.get("rng"), r.get("profile")), len(first))
    aslr = sorted(aslr, key=lambda r: (first[(r["source"], r.get("rng"), r.get("profile"))],
                                       ordered(REGION_ORDER)(r.get("region"))))
    head = (["log"] if multi else []) + ["variant", "profile", "region", "samples", "distinct",
                                         "bits_changed", "entropy_bits", "expected_bits",
                                         "chi2_p"]
    body = [([r["source"]] if multi else []) +
            [r.get(k) for k in ("rng", "profile", "region", "samples", "distinct",
                                "bits_changed", "entropy_bits", "expected_bits", "chi2_p")]
            for r in aslr]
    return out + [md_table(head, body), ""]


def success_pct(r):
    t, s = num(r.get("trials")), num(r.get("successes"))
    return 100.0 * s / t if t and s is not None else None


def wilson_text(r):
    t, s = num(r.get("trials")), num(r.get("successes"))
    if not t or s is None or s > t:
        return None
    lo, hi = report_plots.wilson(s, t)
    return f"{100 * lo:.1f}–{100 * hi:.1f}"


def section_attack(records):
    att = of_type(records, "attack")
    out = ["## Attack lab", ""]
    if not att:
        return out + ["_No attack records._", ""]
    multi = multi_source(records)
    regions = any("region" in r for r in att)  # the kernel reports each region apart
    head = (["log"] if multi else []) + ["strategy", "variant", "proc_leak_fix", "profile"] + \
        (["region"] if regions else []) + ["trials", "successes", "success %",
                                           "95% CI (Wilson)", "mean_guesses"]
    body = []
    for r in att:
        pct = success_pct(r)
        body.append(([r["source"]] if multi else []) +
                    [r.get("strategy"), r.get("rng"), r.get("proc_leak_fix"), r.get("profile")] +
                    ([r.get("region")] if regions else []) +
                    [r.get("trials"), r.get("successes"),
                     None if pct is None else f"{pct:.1f}", wilson_text(r),
                     r.get("mean_guesses")])
    return out + [md_table(head, body), ""]


def section_tests(records):
    tests, sums = of_type(records, "test"), of_type(records, "summary")
    out = ["## Tests", ""]
    if not tests and not sums:
        return out + ["_No test records._", ""]
    count = {k: sum(1 for t in tests if str(t.get("result")).lower() == k)
             for k in ("pass", "fail", "skip")}
    other = len(tests) - sum(count.values())
    rows = [("test records", len(tests)), ("pass", count["pass"]), ("fail", count["fail"]),
            ("skip", count["skip"])] + ([("unknown result", other)] if other else [])
    # A count of 0 beside a summary's "passed 46" reads as a contradiction:
    # without per-test records, say so and give the summary alone.
    out += [md_table(["", "count"], rows), ""] if tests else \
        ["_No per-test record in the log: the counts are the summary record's._", ""]
    for s in sums:
        out.append(f"Summary record (`{s['source']}`): passed {fmt(s.get('passed'))}, "
                   f"failed {fmt(s.get('failed'))}, skipped {fmt(s.get('skipped'))}, "
                   f"status {fmt(s.get('status'))}.")
        if tests and num(s.get("failed")) is not None and num(s.get("failed")) != count["fail"]:
            out.append(f"_Note: the summary's failed count differs from the "
                       f"{count['fail']} failing test records seen._")
    if sums:
        out.append("")
    fails = [t for t in tests if str(t.get("result")).lower() == "fail"]
    if fails:
        multi = multi_source(records)
        out += ["### Failures", "",
                md_table((["log"] if multi else []) + ["test", "detail"],
                         [([t["source"]] if multi else []) + [t.get("name"), t.get("detail")]
                          for t in fails]), ""]
    elif tests:
        out += ["No test failed.", ""]
    return out


def write_report(logs, records, out_dir, path, plots=True):
    """report.md (+ plots); returns (Markdown lines, [PNG names])."""
    counts = {}
    for r in records:
        counts[r["type"]] = counts.get(r["type"], 0) + 1
    lines = ["# aslrbench report", ""]
    lines += section_warning(logs)
    lines += [f"Logs: {', '.join(f'`{lg.name}`' for lg in logs)}. Records: "
              + ", ".join(f"{t} {n}" for t, n in counts.items())
              + f". Warnings: {sum(lg.nwarn for lg in logs)}.", ""]
    # The summary and the plots first; the long tables (boots, ASLR) after,
    # where a reader who wants the figures looks them up.
    plot_lines, pngs = report_plots.make_plots(records, logs, out_dir, PROG) if plots \
        else ([], [])
    lines += plot_lines
    lines += section_boot(logs)
    lines += section_bench(records, logs)
    lines += section_aslr(records)
    lines += section_attack(records)
    lines += report_paxtest.section(records)
    lines += section_tests(records)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines).rstrip() + "\n")
    return lines, pngs
