"""Plots for report.py: honest and comparable across machines.

- One plot per bench (suite, metric), the batched cost included; variants
  grouped on the y axis, one colour per machine, a legend naming each machine
  (⚠ EMULATED / deterministic marked per machine).
- Secure variants are hatched (and named "(secure)"), insecure ones plain.
- A median below the counter's resolution (tsc_step / calls per sample, 1
  cycle when unknown) is flagged "below resolution" with a marker at the
  resolution, never drawn as a bar of 0.
- Cycles are converted to ns where tsc_hz is known: both on one machine's
  plot (second axis), and when machines with different clocks are compared
  the axis is ns (the only comparable unit) with cycles in each bar's label.
  A deterministic run's unit is "instructions".
- Attack success rates carry Wilson 95 % intervals and s/n per bar.
- Every plot states N (ensembles×samples, trials, samples).
"""

import math
import os
import re
import textwrap

from report_logs import run_labels

Z95 = 1.959964  # two-sided 95 % normal quantile, for the Wilson interval


def num(val):
    if isinstance(val, bool) or val is None:
        return None
    try:
        f = float(val)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def truthy(val):
    if isinstance(val, str):
        return val.strip().lower() in ("1", "true", "yes", "on", "y")
    return bool(val)


def wilson(successes, trials, z=Z95):
    """Wilson score interval (low, high) in [0, 1] for s successes of n."""
    if not trials:
        return 0.0, 1.0
    p = successes / trials
    den = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / den
    half = z / den * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def is_secure(r):
    """The record's own `secure` flag (the kernel's rng/*.c `.secure`)."""
    return r.get("secure") is not None and truthy(r["secure"])


def fill_secure(records):
    """Older logs' fork/spawn/aslr records carry no `secure` flag: take it
    from a record of the same log and variant that does (the rng suite's),
    never from a list kept here, which would drift from rng/."""
    known = {(r.get("source"), r.get("rng")): r["secure"] for r in records
             if r.get("secure") is not None}
    for r in records:
        if r.get("secure") is None and (r.get("source"), r.get("rng")) in known:
            r["secure"] = known[(r.get("source"), r.get("rng"))]


def below_resolution(r, machine):
    """The resolution when this cycles median is below it (0 included), else None."""
    med = num(r.get("median"))
    if med is None or not str(r.get("metric", "")).startswith("cycles"):
        return None
    res = resolution(r, machine)
    return res if med < res or med <= 0 else None


def resolution(r, machine):
    """Smallest per-call value the counter can show for this record."""
    step = num(machine.get("tsc_step")) or 1.0
    per = num(r.get("per_sample")) or num(r.get("batch")) or 1.0
    if r.get("metric") == "cycles_per_byte":
        per = 1.0
    return step / per


def fmt_val(v):
    if v is None:
        return "–"
    if v >= 100:
        return f"{v:.0f}"
    return f"{v:.3g}"


def n_text(r):
    e, s = num(r.get("ensembles")), num(r.get("samples"))
    if e and s:
        return f"n={int(e)}×{int(s)}"
    if s:
        return f"n={int(s)}"
    return "n=?"


class Machines:
    """Machine identity per log: label, colour, clock, emulation."""

    def __init__(self, logs):
        # One colour and one legend entry per run (log): two runs of one
        # machine must not share a colour, or their bars read as one series.
        # Runs of one machine are told apart as the comparison's columns are
        # (report_logs.run_labels: time and version, then the file name).
        self.by_source, order = {}, run_labels(logs)
        for i, lg in enumerate(logs):
            boot = next(iter(lg.boots()), {})
            self.by_source[lg.name] = {
                "name": order[i], "machine": lg.machine(), "tsc_hz": num(boot.get("tsc_hz")),
                "tsc_step": num(boot.get("tsc_step")),
                "emulated": lg.emulated(), "deterministic": bool(lg.deterministic()),
                "colour": f"C{i % 10}",
            }
        self.order = order

    def of(self, r):
        return self.by_source.get(r["source"], {"name": os.path.basename(r["source"]),
                                                "tsc_hz": None, "tsc_step": None,
                                                "emulated": False, "deterministic": False,
                                                "colour": "C9"})

    @staticmethod
    def legend_name(m):
        tag = " ⚠ EMULATED" if m["emulated"] else " (deterministic)" if m["deterministic"] else ""
        return m["name"] + tag


def legend(ax, plt, machines_used, extra):
    from matplotlib.patches import Patch
    handles = [Patch(facecolor=m["colour"], label=Machines.legend_name(m)) for m in machines_used]
    handles += extra
    ax.figure.pending_legend = (ax, handles)  # placed by save(), under the x label
    return [h.get_label() for h in handles]


def secure_patch():
    from matplotlib.patches import Patch
    return Patch(facecolor="white", edgecolor="black", hatch="///", label="secure variant (hatched)")


def title(ax, text):
    ax.set_title("\n".join(textwrap.wrap(text, 70)), fontsize="medium")


def unique_machines(rows, machines):
    seen = {}
    for r in rows:
        m = machines.of(r)
        seen.setdefault(m["name"], m)
    return [seen[n] for n in machines.order if n in seen] + \
        [m for n, m in seen.items() if n not in machines.order]


def plot_metric(plt, rows, machines, suite, metric, field, path):
    """Grouped horizontal bars of one metric: a group per variant, a bar per
    (machine, record).  field: "median" (cycles) or "rng_share_pct" (%)."""
    used = unique_machines(rows, machines)
    cycles = field == "median" and str(metric).startswith("cycles")
    det = {m["deterministic"] for m in used}
    clocks = {m["tsc_hz"] for m in used if not m["deterministic"]}
    # ns on the axis only when every machine has a real clock and they differ.
    # Emulated cycles are the emulator's: never converted to time.
    in_ns = cycles and len(used) > 1 and det == {False} and None not in clocks and \
        len(clocks) > 1 and not any(m["emulated"] for m in used)
    unit = "%" if field != "median" else "ns" if in_ns else \
        ("instructions" if det == {True} else "cycles" if det == {False}
         else "cycles or instructions (see legend)")
    variants = list(dict.fromkeys(str(r.get("rng", "–")) for r in rows))
    groups = {v: [r for r in rows if str(r.get("rng", "–")) == v] for v in variants}
    height = 0.8 / max(len(g) for g in groups.values())
    nbars = sum(len(g) for g in groups.values())
    fig, ax = plt.subplots(figsize=(9, 2.6 + 0.32 * nbars + 0.3 * len(used)))
    below_any, values, yticks, labels_at = False, [], [], []
    for gi, v in enumerate(variants):
        grp = groups[v]
        for bi, r in enumerate(grp):
            m = machines.of(r)
            y = gi + (bi - (len(grp) - 1) / 2) * height
            raw = num(r.get(field))
            hz = m["tsc_hz"]
            scale = 1e9 / hz if in_ns else 1.0
            hatch = "///" if is_secure(r) else None
            if raw is None:
                ax.text(0, y, "  not measured", va="center", fontsize="x-small")
                continue
            res = below_resolution(r, m) if cycles else None
            if res is not None:
                below_any = True
                x = max(res, 1e-9) * scale
                ax.plot([x], [y], marker="<", color=m["colour"], markersize=9,
                        markeredgecolor="black")
                ax.text(x, y, f"  below resolution (< {fmt_val(res)} cyc) · {n_text(r)}",
                        va="center", fontsize="x-small")
                values.append(x)
                continue
            val = raw * scale
            lo = num(r.get("min")) if field == "median" else None
            hi = num(r.get("p99")) if field == "median" else None
            err = None
            if lo is not None and hi is not None:
                err = [[max(0.0, val - lo * scale)], [max(0.0, hi * scale - val)]]
            ax.barh([y], [val], height * 0.9, color=m["colour"], hatch=hatch,
                    edgecolor="black", linewidth=0.5, xerr=err, ecolor="black", capsize=2)
            if field != "median":
                text = f"{fmt_val(raw)} %"
            elif in_ns:
                text = f"{fmt_val(val)} ns ({fmt_val(raw)} cyc)"
            elif m["deterministic"]:
                text = f"{fmt_val(raw)} instr"
            elif cycles and hz and not m["emulated"]:
                text = f"{fmt_val(raw)} cyc = {fmt_val(raw * 1e9 / hz)} ns"
            elif cycles and m["emulated"]:
                text = f"{fmt_val(raw)} emulator cyc"
            else:
                text = fmt_val(raw)
            if hi is not None:
                text += f" · p99 {fmt_val(hi)}"  # the whisker may pass the edge
            labels_at.append((val, hi * scale if hi is not None else val, y,
                              f"  {text} · {n_text(r)}"))
            values.append(val)
        yticks.append(v + (" (secure)" if any(is_secure(r) for r in grp) else ""))
    ax.set_yticks(range(len(variants)), yticks)
    ax.invert_yaxis()
    # A linear axis: a bar's length is its value only there.  The scale is
    # the bars' (medians), not the p99 whiskers, which would shrink the bars
    # to slivers; a whisker past the edge is clipped and its value is in the
    # label.
    positive = [x for x in values if x > 0]
    right = max(positive) * 1.6 if positive else None  # room for the labels
    if right:
        ax.set_xlim(0, right)
    for val, hi, y, text in labels_at:  # after the whisker, if it is in view
        ax.text(max(val, hi) if right is None or hi < right * 0.8 else val, y, text,
                va="center", fontsize="x-small")
    whisker = ", whisker min–p99" if field == "median" else ""
    ax.set_xlabel(f"{metric} — {'median ' if field == 'median' else ''}{unit}{whisker}")
    single = used[0] if len(used) == 1 else None
    if cycles and not in_ns and single and single["tsc_hz"] and not single["deterministic"] \
            and not single["emulated"]:
        k = 1e9 / single["tsc_hz"]
        sec = ax.secondary_xaxis("top", functions=(lambda x: x * k, lambda x: x / k))
        sec.set_xlabel(f"ns at tsc_hz {single['tsc_hz'] / 1e9:.3f} GHz")
    ns = sorted({n_text(r) for r in rows})
    title(ax, f"{suite}: {metric} ({'; '.join(ns) if len(ns) <= 2 else 'N per bar'})")
    extra = [secure_patch()]
    if below_any:
        from matplotlib.lines import Line2D
        extra.append(Line2D([], [], marker="<", color="grey", linestyle="none",
                            markeredgecolor="black", label="below resolution (not 0)"))
    labels = legend(ax, plt, used, extra)
    save(plt, fig, path)
    return labels, unit


def plot_aslr_entropy(plt, rows, machines, path):
    """One panel per profile: entropy bars per region and (machine, variant),
    expected bits as a black tick per region; N = samples in the title."""
    multi = len(unique_machines(rows, machines)) > 1
    profiles = sorted({str(r.get("profile")) for r in rows})
    fig, axes = plt.subplots(len(profiles), 1, figsize=(10, 4.2 * len(profiles)), squeeze=False)
    for ax, prof in zip(axes[:, 0], profiles):
        sub = [r for r in rows if str(r.get("profile")) == prof]
        regions = list(dict.fromkeys(str(r.get("region")) for r in sub))
        lab = (lambda r: (machines.of(r)["name"] + ": " if multi else "") + str(r.get("rng")))
        variants = list(dict.fromkeys(lab(r) for r in sub))
        width = 0.8 / max(1, len(variants))
        for vi, var in enumerate(variants):
            vr = [r for r in sub if lab(r) == var]
            vals = {str(r.get("region")): num(r["entropy_bits"]) for r in vr}
            xs = [i - 0.4 + width * (vi + 0.5) for i, reg in enumerate(regions) if reg in vals]
            ax.bar(xs, [vals[reg] for reg in regions if reg in vals], width, label=var,
                   hatch="///" if is_secure(vr[0]) else None, edgecolor="black", linewidth=0.4)
        for i, reg in enumerate(regions):
            exp = [num(r.get("expected_bits")) for r in sub if str(r.get("region")) == reg]
            exp = [e for e in exp if e is not None]
            if exp:
                ax.hlines(max(exp), i - 0.45, i + 0.45, colors="black", linewidth=2,
                          label="expected" if i == 0 else None)
        samples = sorted({int(num(r.get("samples"))) for r in sub if num(r.get("samples"))})
        if samples:
            ax.axhline(math.log2(max(samples)), color="grey", linestyle=":",
                       label="log2(samples) ceiling")
        ax.set_xticks(range(len(regions)), regions)
        ax.set_ylim(0, ax.get_ylim()[1] * 1.35)
        ax.set_ylabel("entropy (bits)")
        ns = ", ".join(str(s) for s in samples) or "?"
        title(ax, f"ASLR entropy, profile {prof} (N = {ns} samples per bar; hatched = secure)")
        ax.legend(fontsize="x-small", ncol=3, loc="upper left")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    save(plt, fig, path)
    return labels, "bits"


def attack_cells(rows, machines):
    """One bar per (machine, strategy, variant, fix, profile): regions pooled."""
    cells = {}
    for r in rows:
        key = (machines.of(r)["name"], r.get("strategy"), r.get("rng"), r.get("proc_leak_fix"),
               r.get("profile"))
        c = cells.setdefault(key, dict(r, trials=0, successes=0))
        c["trials"] += num(r.get("trials")) or 0
        c["successes"] += num(r.get("successes")) or 0
    return list(cells.values())


def plot_attack(plt, rows, machines, path):
    cells = attack_cells(rows, machines)
    used = unique_machines(cells, machines)
    keys = list(dict.fromkeys((c.get("strategy"), c.get("rng"), c.get("proc_leak_fix"),
                               c.get("profile")) for c in cells))
    profiles = len({k[3] for k in keys}) > 1
    per = max(sum(1 for c in cells if (c.get("strategy"), c.get("rng"), c.get("proc_leak_fix"),
                                       c.get("profile")) == k) for k in keys)
    height = 0.8 / per
    fig, ax = plt.subplots(figsize=(9, 2.6 + 0.32 * len(cells) + 0.3 * len(used)))
    labels = []
    for ki, k in enumerate(keys):
        grp = [c for c in cells if (c.get("strategy"), c.get("rng"), c.get("proc_leak_fix"),
                                    c.get("profile")) == k]
        for bi, c in enumerate(grp):
            m = machines.of(c)
            y = ki + (bi - (len(grp) - 1) / 2) * height
            s, n = int(c["successes"]), int(c["trials"])
            lo, hi = wilson(s, n)
            pct = 100.0 * s / n if n else 0.0
            ax.barh([y], [pct], height * 0.9, color=m["colour"], edgecolor="black",
                    linewidth=0.5, hatch="///" if is_secure(c) else None,
                    xerr=[[max(0.0, pct - 100 * lo)], [max(0.0, 100 * hi - pct)]], ecolor="black", capsize=2)
            ax.text(102, y, f"{pct:.0f}% ({s}/{n}; 95% CI "
                    f"{100 * lo:.0f}–{100 * hi:.0f}%)", va="center", fontsize="x-small")
        labels.append(f"{k[0]} / {k[1]} / fix={k[2]}" + (f" / {k[3]}" if profiles else ""))
    ax.set_yticks(range(len(keys)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 165)  # 0..100 %, then the labels
    ax.set_xticks(range(0, 101, 20))
    ax.axvline(100, color="grey", linewidth=0.5)
    ax.set_xlabel("attack success rate (%), whisker = Wilson 95% interval")
    total = sum(int(c["trials"]) for c in cells)
    title(ax, f"Attack lab (fix = proc_leak_fix; regions pooled; N = {total} trials, "
              f"n per bar in its label)")
    labels = legend(ax, plt, used, [secure_patch()])
    save(plt, fig, path)
    return labels, "% of trials, Wilson 95% CI"


def plot_scale(plt, rows, machines, variant, path):
    """suite=scale, one variant: calls per second from k CPUs at once (the
    median, whiskers min..max, a line per run: solid for the kernel loop,
    dashed from ring-3 processes), beside it the per-call
    contention figures of the CPUs taking turns (lock acquisitions, writes
    to lines another CPU also wrote, lines moved between CPUs), and last
    fork+exit+wait and fork+exec+exit+wait per second from ring-3
    processes, one per CPU (the medians)."""
    fig, (ax, bx, cx) = plt.subplots(1, 3, figsize=(15, 4.2))
    runs = unique_machines(rows, machines)
    styles = {"lock_acquisitions_per_call": ("o", "lock acquisitions"),
              "shared_line_writes_per_call": ("s", "shared-line writes"),
              "line_transfers_per_call": ("^", "lines moved")}
    rate_styles = {"rate": ("P", "-"), "ring3": ("D", "--")}
    proc_styles = {"forks_per_sec": ("v", "-", "fork+exit+wait"),
                   "execs_per_sec": ("X", ":", "fork+exec+exit+wait")}
    for m in runs:
        mine = [r for r in rows if machines.of(r)["name"] == m["name"]]
        for mode, (marker, dash) in rate_styles.items():
            rate = sorted((int(num(r["cpus"])), num(r["median"]), num(r.get("min")),
                           num(r.get("max")))
                          for r in mine if r.get("metric") == "calls_per_sec"
                          and (r.get("mode") == "ring3") == (mode == "ring3")
                          and num(r.get("cpus")) and num(r.get("median")) is not None)
            if rate:
                k = [x[0] for x in rate]
                med = [x[1] / 1e6 for x in rate]
                lo = [max(0.0, x[1] - (x[2] if x[2] is not None else x[1])) / 1e6 for x in rate]
                hi = [max(0.0, (x[3] if x[3] is not None else x[1]) - x[1]) / 1e6 for x in rate]
                ax.errorbar(k, med, yerr=[lo, hi], color=m["colour"], marker=marker,
                            linestyle=dash, capsize=3)
        for metric, (marker, _label) in styles.items():
            pts = sorted((int(num(r["cpus"])), num(r.get("mean_exact", r.get("mean"))))
                         for r in mine if r.get("metric") == metric and num(r.get("cpus")))
            pts = [p for p in pts if p[1] is not None]
            if pts:
                bx.plot([p[0] for p in pts], [p[1] for p in pts], color=m["colour"],
                        marker=marker, linestyle="-")
        for metric, (marker, dash, _label) in proc_styles.items():
            pts = sorted((int(num(r["cpus"])), num(r.get("median")))
                         for r in mine if r.get("metric") == metric and num(r.get("cpus")))
            pts = [p for p in pts if p[1] is not None]
            if pts:
                cx.plot([p[0] for p in pts], [p[1] for p in pts], color=m["colour"],
                        marker=marker, linestyle=dash)
    ax.set_xlabel("CPUs drawing at once")
    ax.set_ylabel("million calls per second (all CPUs)")
    ax.set_ylim(bottom=0)
    title(ax, f"{variant}: get_random_int() rate (median of the windows)")
    bx.set_xlabel("CPUs taking turns")
    bx.set_ylabel("per call (mean)")
    bx.set_ylim(bottom=0)
    title(bx, f"{variant}: contention per call")
    cx.set_xlabel("CPUs forking at once (one process each)")
    cx.set_ylabel("per second (all CPUs)")
    cx.set_ylim(bottom=0)
    title(cx, f"{variant}: fork and exec from ring 3")
    for a in (ax, bx, cx):
        a.xaxis.get_major_locator().set_params(integer=True)
    from matplotlib.lines import Line2D
    extra = [Line2D([], [], color="black", marker="P", linestyle="-", label="kernel loop"),
             Line2D([], [], color="black", marker="D", linestyle="--", label="ring 3")]
    extra += [Line2D([], [], color="black", marker=mk, linestyle="-", label=lab)
              for mk, lab in styles.values()]
    extra += [Line2D([], [], color="black", marker=mk, linestyle=dash, label=lab)
              for mk, dash, lab in proc_styles.values()]
    labels = legend(ax, plt, runs, extra)
    save(plt, fig, path)
    return labels, "calls/s; per call; forks/s, execs/s"


def save(plt, fig, path):
    """Lay out, put the pending legend right under the axes' labels (so no
    text is clipped whatever the plot's height), and write the PNG."""
    fig.tight_layout()
    pending = getattr(fig, "pending_legend", None)
    if pending:
        ax, handles = pending
        fig.canvas.draw()
        box = ax.get_tightbbox(fig.canvas.get_renderer())
        y = fig.transFigure.inverted().transform((0, box.y0))[1]
        fig.legend(handles=handles, fontsize="small", loc="upper center",
                   bbox_to_anchor=(0.5, y - 0.01), bbox_transform=fig.transFigure,
                   frameon=False)
    fig.savefig(path, dpi=100, bbox_inches="tight", pad_inches=0.15)
    plt.close(fig)


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", str(text))


def plan(records, machines):
    """[(file name, caption, drawing function)] for these records."""
    out = []
    bench = [r for r in records if r["type"] == "bench" and truthy(r.get("available", True))]
    scale = [r for r in bench if r.get("suite") == "scale"]
    bench = [r for r in bench if r.get("suite") != "scale"]
    keys = list(dict.fromkeys((str(r.get("suite", "?")), str(r.get("metric", "?")))
                              for r in bench))
    for suite, metric in keys:
        rows = [r for r in bench if (str(r.get("suite", "?")), str(r.get("metric", "?")))
                == (suite, metric) and "median" in r]
        if rows:
            out.append((f"bench-{safe_name(suite)}-{safe_name(metric)}.png",
                        f"{suite}: {metric}",
                        lambda plt, p, rows=rows, s=suite, m=metric:
                        plot_metric(plt, rows, machines, s, m, "median", p)))
    share = [r for r in bench if num(r.get("rng_share_pct")) is not None]
    if share:
        suite = str(share[0].get("suite", "fork"))
        out.append((f"bench-{safe_name(suite)}-rng_share_pct.png", f"{suite}: RNG share (%)",
                    lambda plt, p: plot_metric(plt, share, machines, suite,
                                               "rng_share_pct", "rng_share_pct", p)))
    for variant in dict.fromkeys(str(r.get("rng")) for r in scale):
        rows = [r for r in scale if str(r.get("rng")) == variant]
        out.append((f"scale-{safe_name(variant)}.png", f"scale: {variant}",
                    lambda plt, p, rows=rows, v=variant: plot_scale(plt, rows, machines, v, p)))
    aslr = [r for r in records if r["type"] == "aslr" and num(r.get("entropy_bits")) is not None]
    if aslr:
        out.append(("aslr_entropy.png", "ASLR entropy",
                    lambda plt, p: plot_aslr_entropy(plt, aslr, machines, p)))
    att = [r for r in records if r["type"] == "attack" and num(r.get("trials"))
           and num(r.get("successes")) is not None]
    if att:
        out.append(("attack.png", "Attack lab",
                    lambda plt, p: plot_attack(plt, att, machines, p)))
    return out


def make_plots(records, logs, out_dir, prog):
    """Draw every plot into out_dir.  Returns (Markdown lines, [png names]).
    Skipped plots are said on stderr (why) and noted in the Markdown."""
    import sys
    lines, made = ["## Plots", ""], []
    fill_secure(records)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        why = f"matplotlib unavailable ({err}); run with /usr/bin/python3 and python3-matplotlib"
        print(f"{prog}: note: plots skipped: {why}", file=sys.stderr)
        return lines + [f"_Plots skipped: {why}._", ""], made
    for old in os.listdir(out_dir):  # no stale plot from an earlier run
        if old.endswith(".png") and (old.startswith("bench-") or old.startswith("scale-") or
                                     old in ("aslr_entropy.png", "attack.png")):
            os.remove(os.path.join(out_dir, old))
    machines = Machines(logs)
    todo = plan(records, machines)
    if not todo:
        why = "no bench, aslr or attack records to plot"
        print(f"{prog}: note: plots skipped: {why}", file=sys.stderr)
        return lines + [f"_Plots skipped: {why}._", ""], made
    for name, caption, draw in todo:
        try:
            labels, unit = draw(plt, os.path.join(out_dir, name))
        except Exception as err:  # a plot must never sink the report
            plt.close("all")
            print(f"{prog}: warning: {name}: plotting failed ({type(err).__name__}: {err})",
                  file=sys.stderr)
            lines += [f"- `{name}` skipped: plotting failed ({type(err).__name__}).", ""]
            continue
        made.append(name)
        lines += [f"![{caption} [{unit}] — legend: {'; '.join(labels)}]({name})", ""]
    return lines, made
