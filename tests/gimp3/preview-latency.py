# ThreadLens benchmark (not a test): how long GIMP's canvas takes to show
# a live filter's new result after a change of one of its settings,
# threadlens:FILTER against GIMP's own filter of the same name, as a user
# meets it with the photo open in a window.  Run by
# tests/bench-gimp3-preview.sh in GIMP 3 under Xvfb.
#
# Each case keeps the filter on the layer's stack (GimpDrawableFilter, as
# GIMP's own dialogs keep their preview), changes the setting, and grabs
# the middle of the screen (the canvas) every TL_POLL_MS until it has not
# changed for TL_SETTLE_MS: the latency is the time from the change to
# the first grab that shows the settled canvas.  Each run changes the
# first value to the second, from a canvas settled at the first.  Environment: TL_PHOTO, TL_OUT_DIR
# (a screenshot per size goes there), TL_SIZES ("1920x1080 3840x2160"),
# TL_RUNS, TL_CASES (a regular expression on the case's name).
#
# SPDX-License-Identifier: GPL-3.0-or-later

import hashlib
import os
import re
import statistics
import time

import gi
gi.require_version('Gimp', '3.0')
gi.require_version('Gdk', '3.0')
from gi.repository import Gdk, Gimp, Gio, GLib

POLL_S = int(os.environ.get('TL_POLL_MS', '40')) / 1000.0
SETTLE_S = int(os.environ.get('TL_SETTLE_MS', '2500')) / 1000.0
LIMIT_S = 600.0

# name, threadlens's setting, GIMP's operation, its settings (all set to
# the one value), first and second value.
CASES = [
    ('brightness-contrast', 'contrast', 'gegl:brightness-contrast', ['contrast'], 1.2, 1.6),
    ('gaussian-blur', 'std-dev', 'gegl:gaussian-blur', ['std-dev-x', 'std-dev-y'], 3.0, 6.0),
    ('box-blur', 'radius', 'gegl:box-blur', ['radius'], 4, 8),
    ('unsharp-mask', 'std-dev', 'gegl:unsharp-mask', ['std-dev'], 3.0, 6.0),
    ('pixelize', 'size', 'gegl:pixelize', ['size-x', 'size-y'], 16, 32),
    ('median-blur', 'radius', 'gegl:median-blur', ['radius'], 3, 5),
    ('bilateral-filter', 'blur-radius', 'gegl:bilateral-filter', ['blur-radius'], 4.0, 8.0),
    ('snn-mean', 'radius', 'gegl:snn-mean', ['radius'], 4, 8),
    ('noise-reduction', 'iterations', 'gegl:noise-reduction', ['iterations'], 2, 4),
    ('mean-curvature-blur', 'iterations', 'gegl:mean-curvature-blur', ['iterations'], 10, 20),
]

Gdk.init([])
screen = Gdk.get_default_root_window()
screen_w, screen_h = screen.get_width(), screen.get_height()
# The canvas's middle: clear of the docks, rulers and status bar.
crop = (screen_w * 3 // 10, screen_h * 3 // 10, screen_w * 2 // 5, screen_h * 2 // 5)


def grab():
    pixbuf = Gdk.pixbuf_get_from_window(screen, *crop)
    return hashlib.blake2b(pixbuf.get_pixels(), digest_size=16).digest()


def pump():
    # Nothing of GIMP's runs here, but the grab's connection wants its
    # events read.
    while GLib.MainContext.default().iteration(False):
        pass


def settle(start, changes=True):
    """The time from START to the first grab showing the canvas that then
    stays for SETTLE_S; with CHANGES, only after the canvas has changed
    (a slow filter may show nothing new for longer than SETTLE_S)."""
    first = grab()
    shown, since = first, time.monotonic()
    while True:
        time.sleep(POLL_S)
        pump()
        now_hash, now = grab(), time.monotonic()
        if now_hash != shown:
            shown, since = now_hash, now
        elif now - since >= SETTLE_S and not (changes and shown == first):
            return since - start
        if now - start > LIMIT_S:
            raise RuntimeError('the canvas did not settle in %d s' % LIMIT_S)


def set_values(live, names, value):
    config = live.get_config()
    for name in names:
        config.set_property(name, value)
    live.update()


def save_screen(name):
    shot = Gdk.pixbuf_get_from_window(screen, 0, 0, screen_w, screen_h)
    shot.savev(os.path.join(os.environ['TL_OUT_DIR'], name), 'png', [], [])


def measure(image, layer, operation, names, first, second, runs, shot):
    """The latencies of RUNS changes from FIRST to SECOND, each from a
    canvas settled at FIRST."""
    live = Gimp.DrawableFilter.new(layer, operation, operation)
    set_values(live, names, first)
    layer.append_filter(live)
    Gimp.displays_flush()
    settle(time.monotonic())
    times = []
    for run in range(runs):
        start = time.monotonic()
        set_values(live, names, second)
        Gimp.displays_flush()
        times.append(settle(start) * 1000.0)
        set_values(live, names, first)
        Gimp.displays_flush()
        settle(time.monotonic())
    save_screen(shot)
    live.delete()
    Gimp.displays_flush()
    settle(time.monotonic())
    return times


def main():
    runs = int(os.environ.get('TL_RUNS', '3'))
    pattern = re.compile(os.environ.get('TL_CASES', '.'))
    photo = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                           Gio.File.new_for_path(os.environ['TL_PHOTO']))
    for size in os.environ.get('TL_SIZES', '1920x1080').split():
        w, h = (int(x) for x in size.split('x'))
        image = photo.duplicate()
        image.scale(w, h)
        image.clean_all()
        layer = image.get_layers()[0]
        display = Gimp.Display.new(image)
        Gimp.displays_flush()
        settle(time.monotonic(), changes=False)
        save_screen('screen-%s.png' % size)
        for name, ours, operation, names, first, second in CASES:
            if not pattern.search(name):
                continue
            for who, op, props in (('threadlens', 'threadlens:' + name, [ours]),
                                   ('gimp', operation, names)):
                times = measure(image, layer, op, props, first, second, runs,
                                'screen-%s-%s-%s.png' % (size, name, who))
                print('TL-PREVIEW %s %s %s %.1f %s' %
                      (size, name, who, statistics.median(times),
                       ' '.join('%.0f' % t for t in times)), flush=True)
        display.delete()
        image.delete()
    photo.delete()


main()
