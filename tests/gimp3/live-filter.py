# ThreadLens tests: a threadlens: filter kept on a layer's stack while the
# layer and the filter change, as a user works under a live filter.  What
# GIMP's projection shows (copied visible, at level 0, in GIMP's chunks)
# is saved first and after an edit and a new setting;
# tests/test-gimp3-python.c holds each to `threadlens apply` on what the
# layer then holds.  TL_PHOTO: the photo;
# TL_OUT_DIR: where the PNGs go.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os

import gi
gi.require_version('Gimp', '3.0')
from gi.repository import Gimp, Gio

out = os.environ['TL_OUT_DIR']
image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                       Gio.File.new_for_path(os.environ['TL_PHOTO']))
layer = image.get_layers()[0]


def save(img, name):
    Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, img,
                   Gio.File.new_for_path(os.path.join(out, name)), None)


def shown(name):
    if not Gimp.edit_copy_visible(image):
        raise RuntimeError('copy visible failed')
    copy = Gimp.edit_paste_as_new_image()
    save(copy, name)
    copy.delete()


live = Gimp.DrawableFilter.new(layer, 'threadlens:box-blur', 'Box blur')
live.get_config().set_property('radius', 3.0)
live.update()
layer.append_filter(live)
shown('shown-first.png')

# A band filled under the filter, then the layer as the filter reads it.
# (GIMP shows an edit under a live filter unfiltered until the filter
# runs again, its own filters too: no pixels to compare there.)
image.select_rectangle(Gimp.ChannelOps.REPLACE, 140, 90, 300, 24)
layer.edit_fill(Gimp.FillType.FOREGROUND)
Gimp.Selection.none(image)
live.set_visible(False)
shown('stroked.png')
live.set_visible(True)

# A new setting: every block computed before is stale.
live.get_config().set_property('radius', 9.0)
live.update()
shown('shown-radius.png')
print('TL-LIVE done, %d filter(s)' % len(layer.get_filters()))
image.delete()
