#!/usr/bin/env python3
# ThreadLens: a markdown table from bench-gegl's JSON (doc/performance.md's
# in-core table).  With two files, the first is the baseline and the table
# shows both medians.  Cases without a ThreadLens breakdown (thread-map)
# show zeros there.  Usage: gegl-table.py [BASELINE.json] RESULT.json
import json
import sys

if len(sys.argv) not in (2, 3):
    sys.exit("usage: gegl-table.py [BASELINE.json] RESULT.json")
rows = json.load(open(sys.argv[-1]))
base = {}
if len(sys.argv) == 3:
    base = {(r["size"], r["case"]): r for r in json.load(open(sys.argv[1]))}

head = ["size", "operation"]
if base:
    head += ["before ms"]
head += ["ms", "ms/MP", "invert-gamma ms", "of it", "read", "upload", "kernels",
         "download", "write", "device", "GEGL CPU twin", "GEGL OpenCL twin",
         "CPU twin / ms", "check"]
print("| " + " | ".join(head) + " |")
print("|" + " --- |" * len(head))
for r in rows:
    cells = [r["size"], r["case"]]
    if base:
        b = base.get((r["size"], r["case"]))
        cells.append("%.1f" % b["median_ms"] if b else "")
    cells += ["%.1f" % r["median_ms"], "%.2f" % r["ms_per_mp"],
              "%.1f" % r["invert_gamma_ms"], "%.2f" % r["vs_invert_gamma"]]
    cells += ["%.1f" % r[k] for k in ("read_ms", "upload_ms", "kernels_ms",
                                      "download_ms", "write_ms")]
    # The device's part by the wall clock, where the run measured it.
    cells.append("%.1f" % r["device_ms"] if "device_ms" in r else "")
    for k in ("twin_cpu_ms", "twin_opencl_ms"):
        cells.append("%.1f" % r[k] if r[k] >= 0 else "")
    # How many times faster than GEGL's own on the CPU.
    cells.append("%.0f" % (r["twin_cpu_ms"] / r["median_ms"])
                 if r["twin_cpu_ms"] >= 0 and r["median_ms"] > 0 else "")
    cells.append(r["check"])
    print("| " + " | ".join(cells) + " |")
