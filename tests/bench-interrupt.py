#!/usr/bin/env python3
# ThreadLens benchmark: a long `threadlens apply` on a terminal, watched
# and interrupted, as a user at a shell would.
#
#   python3 tests/bench-interrupt.py BIN PHOTO [RUNS [AFTER_S [FILTER SETTING]]]
#
# Runs BIN apply FILTER --set SETTING PHOTO OUT on a pseudo-terminal RUNS
# times (default 5), sends SIGINT AFTER_S seconds (default 3) after the
# first progress line, and reports per run: when the first line came,
# the longest and the median gap between progress lines, how long after
# SIGINT the process ended, its exit status and whether OUT exists.
# Default filter: bilateral-filter blur-radius=1000.  A 2 MP photo:
# gimp-console-2.10 can scale one (see doc/performance.md).
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import pty
import select
import signal
import statistics
import sys
import tempfile
import time


def one_run(bin_path, photo, after_s, filter_name, setting):
    out_dir = tempfile.mkdtemp(prefix="tl-interrupt-")
    out = os.path.join(out_dir, "out.png")
    pid, master = pty.fork()
    if pid == 0:
        os.execv(bin_path, [bin_path, "apply", filter_name, "--set", setting,
                            photo, out])
    start = time.monotonic()
    seen = b""
    lines = []          # times of progress lines
    sent = None
    status = None
    while status is None:
        ready, _, _ = select.select([master], [], [], 0.01)
        if ready:
            try:
                data = os.read(master, 4096)
            except OSError:
                data = b""
            now = time.monotonic()
            lines += [now] * data.count(b"(Ctrl-C")
            seen += data
        if sent is None and lines and time.monotonic() - lines[0] >= after_s:
            os.kill(pid, signal.SIGINT)
            sent = time.monotonic()
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = code
        if time.monotonic() - start > 600:
            os.kill(pid, signal.SIGKILL)
    ended = time.monotonic()
    gaps = [b - a for a, b in zip(lines, lines[1:])]
    written = os.listdir(out_dir)
    os.close(master)
    return {
        "first": (lines[0] - start) if lines else float("nan"),
        "gap_max": max(gaps) if gaps else float("nan"),
        "gap_median": statistics.median(gaps) if gaps else float("nan"),
        "lines": len(lines),
        "exit_ms": (ended - sent) * 1000 if sent else float("nan"),
        "status": os.waitstatus_to_exitcode(status),
        "written": written,
        "said": b"interrupted; no output was written" in seen,
    }


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__ if __doc__ else "usage: bench-interrupt.py BIN PHOTO "
                 "[RUNS [AFTER_S [FILTER SETTING]]]")
    bin_path, photo = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    after_s = float(sys.argv[4]) if len(sys.argv) > 4 else 3.0
    filter_name = sys.argv[5] if len(sys.argv) > 5 else "bilateral-filter"
    setting = sys.argv[6] if len(sys.argv) > 6 else "blur-radius=1000"

    print(f"{filter_name} {setting} on {photo}, SIGINT {after_s:g} s after "
          f"the first progress line\n")
    print("| run | first line (s) | lines | longest gap (s) | median gap (s) "
          "| SIGINT to exit (ms) | status | files left | message |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    exits = []
    for i in range(runs):
        r = one_run(bin_path, photo, after_s, filter_name, setting)
        exits.append(r["exit_ms"])
        print(f"| {i + 1} | {r['first']:.2f} | {r['lines']} | "
              f"{r['gap_max']:.2f} | {r['gap_median']:.2f} | "
              f"{r['exit_ms']:.0f} | {r['status']} | "
              f"{len(r['written'])} | {'yes' if r['said'] else 'no'} |")
    print(f"\nmedian SIGINT to exit: {statistics.median(exits):.0f} ms")


if __name__ == "__main__":
    main()
