#!/usr/bin/env python3
# ThreadLens: doc/performance.md's tables and doc/performance.svg from the
# JSON that build-aux/bench-gegl.c writes (doc/bench/*.json).  Python 3
# standard library only.
#
#   python3 build-aux/perf-tables.py            rewrite the marked tables
#                                               (doc/performance.md and the
#                                               README's summary) and the
#                                               plot
#   python3 build-aux/perf-tables.py --check    exit 1 if a rerun would
#                                               change either
#   python3 build-aux/perf-tables.py --table [BASELINE.json] RESULT.json
#                                               print one table (with a
#                                               "before ms" column when a
#                                               baseline is given)
#
# Each table in doc/performance.md sits between two marker lines,
#   <!-- perf-tables:NAME begin -->
#   <!-- perf-tables:NAME end -->
# and everything between them is replaced by NAME's table from TABLES
# below: a line naming the device, the commit and the JSON, then the
# markdown table.  The JSON does not say which device or commit made it,
# so TABLES does: when a file in doc/bench/ is measured again, update its
# entry here and the command above the markers in doc/performance.md.
# README.md has one such block, "readme": a short table of the same JSON
# as "gegl-3840x2160".  The output depends on the JSON and this file
# only, so a rerun without new JSON changes nothing.
import json
import math
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     ".."))
BENCH = os.path.join(ROOT, "doc", "bench")
MARKDOWN = os.path.join(ROOT, "doc", "performance.md")
README = os.path.join(ROOT, "README.md")
SVG = os.path.join(ROOT, "doc", "performance.svg")

H200 = "NVIDIA H200, driver 580.159.04, NVIDIA OpenCL 3.0; 16 CPU cores"
H100 = "NVIDIA H100 80GB HBM3, driver 580.159.04, NVIDIA OpenCL 3.0; 16 CPU cores"
POCL = "PoCL 3.1 on the 2-core Debian 12 build machine, GEGL 0.4.42"

# name: the JSON files (rows in order), the device and the commit.
TABLES = {
    "gegl-3840x2160": {"files": ["3840x2160.json"],
                       "device": H200, "commit": "cc4c514"},
    "gegl-sizes": {"files": ["sizes.json"],
                   "device": H200, "commit": "cc4c514"},
    "neighbourhood-3840x2160": {"files": ["neighbourhood-3840x2160.json"],
                                "device": H100, "commit": "cfa0c47"},
    "median-radius": {"files": ["median-radius.json"],
                      "device": H100, "commit": "cfa0c47"},
    # The size, and bilateral-filter's blur-radius 20 at a quarter
    # of it (GEGL's own takes three minutes a run at 3840x2160 here).
    "neighbourhood-pocl": {"files": ["neighbourhood-pocl-3840x2160.json",
                                     "neighbourhood-pocl-1920x1080.json"],
                           "device": POCL, "commit": "3fb6c07"},
}

# The README's summary: the 8 MP cases of this table, a few columns.
README_TABLE = "gegl-3840x2160"

# The plot: every case of these tables that has a GEGL twin on the CPU,
# ThreadLens's median against the twin's, on a log scale.
PLOT_TABLES = ["gegl-3840x2160", "neighbourhood-3840x2160"]
PLOT_DEVICE_SHORT = {H200: "NVIDIA H200", H100: "NVIDIA H100"}


def load(name):
    with open(os.path.join(BENCH, name)) as f:
        return json.load(f)


def table(rows, base=None):
    """The markdown table of ROWS; BASE maps (size, case) to a baseline row."""
    head = ["size", "operation"]
    if base is not None:
        head.append("before ms")
    head += ["ms", "ms/MP", "invert-gamma ms", "of it", "read", "upload",
             "kernels", "download", "write", "device", "GEGL CPU twin",
             "GEGL OpenCL twin", "CPU twin / ms", "check"]
    out = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in rows:
        cells = [r["size"], r["case"]]
        if base is not None:
            b = base.get((r["size"], r["case"]))
            cells.append("%.1f" % b["median_ms"] if b else "")
        cells += ["%.1f" % r["median_ms"], "%.2f" % r["ms_per_mp"],
                  "%.1f" % r["invert_gamma_ms"], "%.2f" % r["vs_invert_gamma"]]
        cells += ["%.1f" % r[k] for k in ("read_ms", "upload_ms", "kernels_ms",
                                          "download_ms", "write_ms")]
        # The device's part by the wall clock, where the run measured it.
        cells.append("%.1f" % r["device_ms"] if "device_ms" in r else "")
        for k in ("twin_cpu_ms", "twin_opencl_ms"):
            cells.append("%.1f" % r[k] if r.get(k, -1) >= 0 else "")
        # How many times faster than GEGL's own on the CPU: two decimals
        # where it is near 1, as on the build machine's PoCL.
        if r.get("twin_cpu_ms", -1) >= 0 and r["median_ms"] > 0:
            speedup = r["twin_cpu_ms"] / r["median_ms"]
            cells.append("%.2f" % speedup if speedup < 10 else "%.0f" % speedup)
        else:
            cells.append("")
        cells.append(r["check"])
        out.append("| " + " | ".join(cells) + " |")
    return out


def block(name):
    spec = TABLES[name]
    rows = []
    for f in spec["files"]:
        rows += load(f)
    files = ", ".join("[`doc/bench/%s`](bench/%s)" % (f, f) for f in spec["files"])
    return (["Device: %s. Commit %s. JSON: %s." % (spec["device"], spec["commit"],
                                                   files), ""]
            + table(rows))


def readme_block(name):
    spec = TABLES[README_TABLE]
    rows = []
    for f in spec["files"]:
        rows += load(f)
    out = ["%s, commit %s, from [`doc/bench/%s`](doc/bench/%s):"
           % (spec["device"].split(";")[0], spec["commit"], spec["files"][0],
              spec["files"][0]), "",
           "| operation | ThreadLens in GIMP's process | GEGL's own, CPU "
           "| GEGL's own, OpenCL |",
           "| --- | --- | --- | --- |"]
    for r in rows:
        # The filters at their defaults that GEGL has too: the user's
        # comparison, short enough for the README.
        if ":" in r["case"] or r.get("twin_cpu_ms", -1) < 0:
            continue
        cells = [r["case"], "%.1f ms" % r["median_ms"]]
        for k in ("twin_cpu_ms", "twin_opencl_ms"):
            cells.append("%.1f ms" % r[k] if r.get(k, -1) >= 0 else "-")
        out.append("| " + " | ".join(cells) + " |")
    return out


def markdown(text, blocks=None, where="doc/performance.md"):
    """TEXT with every marked block replaced; BLOCKS maps names to makers."""
    if blocks is None:
        blocks = {name: block for name in TABLES}
    lines = text.split("\n")
    out = []
    i = 0
    seen = set()
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if line.startswith("<!-- perf-tables:") and line.endswith(" begin -->"):
            name = line[len("<!-- perf-tables:"):-len(" begin -->")]
            if name not in blocks:
                sys.exit("perf-tables.py: %s names an unknown table '%s'"
                         % (where, name))
            end = "<!-- perf-tables:%s end -->" % name
            while i < len(lines) and lines[i] != end:
                i += 1
            if i == len(lines):
                sys.exit("perf-tables.py: no '%s' line" % end)
            out += [""] + blocks[name](name) + [""]
            seen.add(name)
    missing = sorted(set(blocks) - seen)
    if missing:
        sys.exit("perf-tables.py: %s has no markers for %s"
                 % (where, ", ".join(missing)))
    return "\n".join(out)


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def num(ms):
    return "%.0f" % ms if ms >= 100 else "%.1f" % ms


def svg():
    groups = []
    for name in PLOT_TABLES:
        spec = TABLES[name]
        rows = []
        for f in spec["files"]:
            rows += [r for r in load(f) if r.get("twin_cpu_ms", -1) >= 0]
        title = "%s, commit %s" % (PLOT_DEVICE_SHORT[spec["device"]],
                                   spec["commit"])
        groups.append((title, rows))
    sizes = sorted({r["size"] for _, rows in groups for r in rows})
    values = [v for _, rows in groups for r in rows
              for v in (r["median_ms"], r["twin_cpu_ms"])]
    lo = 10 ** math.floor(math.log10(min(values)))
    hi = 10 ** math.ceil(math.log10(max(values)))
    decades = int(round(math.log10(hi / lo)))

    width, left, right = 960, 330, 60
    plot_w = width - left - right
    bar, gap, row_h, group_h = 9, 2, 26, 30
    top = 78
    n_rows = sum(len(rows) for _, rows in groups)
    height = top + n_rows * row_h + len(groups) * group_h + 40

    def x(ms):
        return left + plot_w * math.log10(ms / lo) / decades

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">'
           % (width, height, width, height),
           '<rect width="%d" height="%d" fill="#ffffff"/>' % (width, height),
           '<text x="%d" y="22" font-size="15" font-weight="bold">ThreadLens '
           'in GEGL against GEGL\'s own operation on the CPU, %s, median ms '
           '(log scale)</text>' % (10, esc(", ".join(sizes))),
           '<rect x="10" y="34" width="14" height="%d" fill="#1f77b4"/>' % bar,
           '<text x="30" y="43">ThreadLens (threadlens:OP on the GPU, '
           'reading and writing GEGL\'s buffers)</text>',
           '<rect x="10" y="50" width="14" height="%d" fill="#ff7f0e"/>' % bar,
           '<text x="30" y="59">GEGL\'s own operation on 16 CPU threads '
           '(the same settings)</text>']
    bottom = height - 40
    for d in range(decades + 1):
        ms = lo * 10 ** d
        gx = x(ms)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#cccccc"/>'
                   % (gx, top - 6, gx, bottom))
        label = "%g" % ms if ms < 1e6 else "%.0e" % ms
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%s ms</text>'
                   % (gx, bottom + 16, label))
    y = top
    for title, rows in groups:
        out.append('<text x="10" y="%d" font-weight="bold">%s</text>'
                   % (y + 18, esc(title)))
        y += group_h
        for r in rows:
            out.append('<text x="%d" y="%d" text-anchor="end">%s</text>'
                       % (left - 8, y + bar + 4, esc(r["case"])))
            for k, (ms, colour) in enumerate(((r["median_ms"], "#1f77b4"),
                                              (r["twin_cpu_ms"], "#ff7f0e"))):
                by = y + k * (bar + gap)
                out.append('<rect x="%d" y="%d" width="%.1f" height="%d" '
                           'fill="%s"/>' % (left, by, x(ms) - left, bar, colour))
                out.append('<text x="%.1f" y="%d" font-size="10">%s</text>'
                           % (x(ms) + 3, by + bar - 1, num(ms)))
            y += row_h
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000000"/>'
               % (left, top - 6, left, bottom))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    if argv[:1] == ["--table"]:
        if len(argv) not in (2, 3):
            sys.exit("usage: perf-tables.py --table [BASELINE.json] RESULT.json")
        with open(argv[-1]) as f:
            rows = json.load(f)
        base = None
        if len(argv) == 3:
            with open(argv[1]) as f:
                base = {(r["size"], r["case"]): r for r in json.load(f)}
        print("\n".join(table(rows, base)))
        return 0
    check = argv == ["--check"]
    if argv and not check:
        sys.exit("usage: perf-tables.py [--check | --table [BASELINE.json] "
                 "RESULT.json]")
    outputs = []
    for path, make in ((MARKDOWN, markdown),
                       (README, lambda text: markdown(text, {"readme": readme_block},
                                                      "README.md")),
                       (SVG, lambda text: svg())):
        old = None
        if os.path.exists(path):
            with open(path) as f:
                old = f.read()
        outputs.append((path, old, make(old)))
    if check:
        stale = [path for path, old, new in outputs if old != new]
        for path in stale:
            print("perf-tables.py: %s is out of date"
                  % os.path.relpath(path, ROOT))
        return 1 if stale else 0
    for path, old, new in outputs:
        if new != old:
            with open(path, "w") as f:
                f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
