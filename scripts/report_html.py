"""report.py --html: one self-contained page (CSS inline, plots as data:
URIs) from the Markdown report, readable on a phone and on a desktop.

The Markdown is report.py's own small subset (headings, pipe tables with
escaped pipes, blockquotes, bullet lists, images, `code`, **bold**, _italic_),
so a converter for exactly that subset is enough and needs no package.
"""

import base64
import html
import os
import re

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;
 max-width:1360px;padding:0 12px 40px;line-height:1.45;color:#111;background:#fff}
p,blockquote,ul,h1,h2{max-width:1100px}
h1{font-size:1.6em;margin:.6em 0 .3em}h2{font-size:1.3em;margin-top:1.6em;
 border-bottom:1px solid #ccc}h3{font-size:1.05em}
.tbl{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.5em 0 1em}
table{border-collapse:collapse;font-size:.85em;min-width:50%}
th,td{border:1px solid #bbb;padding:3px 6px;text-align:left;white-space:nowrap;
 font-variant-numeric:tabular-nums}
th{background:#eef;white-space:normal;vertical-align:bottom}
th.long{min-width:9em}td.long{white-space:normal;min-width:14em}
tr:nth-child(even) td{background:#f7f7f7}
blockquote{margin:1em 0;padding:.5em 1em;background:#fff4e0;border-left:4px solid #e69500}
figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #ddd}
figcaption{font-size:.85em;color:#444}code{background:#f2f2f2;padding:0 3px}
@media (max-width:600px){body{padding:0 6px 30px}table{font-size:.75em}h1{font-size:1.3em}}
"""


def inline(text):
    """Markdown inline subset → HTML (input not yet escaped)."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        t = html.escape(part, quote=False)
        t = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", t)
        t = re.sub(r"(?<![\w])_(.+?)_(?![\w])", r"<em>\1</em>", t)
        out.append(t)
    return "".join(out)


# A cell of prose (a reason, a failure's detail) wraps, and so does a header,
# the longer ones (a run's label) kept wide enough not to stack one word a
# line; figures never wrap.
LONG_CELL = 40


def cell(tag, text):
    cls = ' class="long"' if len(text) > LONG_CELL else ""
    return f"<{tag}{cls}>{inline(text)}</{tag}>"


def split_row(line):
    cells = re.split(r"(?<!\\)\|", line.strip()[1:-1])
    return [c.strip().replace("\\|", "|") for c in cells]


def image(alt, name, out_dir):
    path = os.path.join(out_dir, name)
    try:
        with open(path, "rb") as fh:
            data = base64.b64encode(fh.read()).decode("ascii")
    except OSError:
        return f"<p>(plot {html.escape(name)} missing)</p>"
    return (f'<figure><img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{html.escape(alt)}</figcaption></figure>")


def to_html(md_lines, out_dir, title):
    body, i = [], 0
    lines = [ln for chunk in md_lines for ln in str(chunk).split("\n")]
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("|") and i + 1 < len(lines) and re.match(r"^\|(-+\|)+$", lines[i + 1]):
            head = split_row(ln)
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(split_row(lines[i]))
                i += 1
            body.append('<div class="tbl"><table><thead><tr>' +
                        "".join(cell("th", c) for c in head) + "</tr></thead><tbody>" +
                        "".join("<tr>" + "".join(cell("td", c) for c in r) + "</tr>"
                                for r in rows) + "</tbody></table></div>")
            continue
        m = re.match(r"^(#{1,3}) (.*)$", ln)
        img = re.match(r"^!\[(.*)\]\(([^)]+)\)$", ln)
        if m:
            n = len(m.group(1))
            body.append(f"<h{n}>{inline(m.group(2))}</h{n}>")
        elif img:
            body.append(image(img.group(1), img.group(2), out_dir))
        elif ln.startswith("> "):
            body.append(f"<blockquote>{inline(ln[2:])}</blockquote>")
        elif ln.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{inline(lines[i][2:])}</li>")
                i += 1
            body.append("<ul>" + "".join(items) + "</ul>")
            continue
        elif ln.strip():
            body.append(f"<p>{inline(ln)}</p>")
        i += 1
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_html(md_lines, out_dir, name, title):
    path = os.path.join(out_dir, name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(to_html(md_lines, out_dir, title))
    return path
