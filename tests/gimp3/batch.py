# ThreadLens from GIMP 3's Python, in batch: two filters and the thread
# map on a photo, as the README shows it.  Run it with
#
#   TL_PHOTO=in.png TL_OUT=out.png gimp-console-3 -i \
#     --batch-interpreter=python-fu-eval \
#     -b "exec(open('tests/gimp3/batch.py').read())" --quit
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os

import gi
gi.require_version('Gimp', '3.0')
from gi.repository import Gimp, Gio

image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                       Gio.File.new_for_path(os.environ['TL_PHOTO']))
layer = image.get_layers()[0]
pdb = Gimp.get_pdb()

# A ThreadLens procedure: its arguments by name, dispatch included.
blur = pdb.lookup_procedure('plug-in-threadlens-gaussian-blur')
config = blur.create_config()
config.set_property('run-mode', Gimp.RunMode.NONINTERACTIVE)
config.set_property('image', image)
config.set_core_object_array('drawables', [layer])
config.set_property('std-dev', 3.0)
config.set_property('shape-width', 16)
config.set_property('shape-height', 8)
result = blur.run(config)
if result.index(0) != Gimp.PDBStatusType.SUCCESS:
    raise RuntimeError('gaussian blur: ' + str(result.index(1)))

# A threadlens:* operation as a GIMP filter, merged into the layer.
invert = Gimp.DrawableFilter.new(layer, 'threadlens:invert',
                                 'Invert (ThreadLens)')
invert.get_config().set_property('mode', 'non-uniform')
invert.update()
layer.merge_filter(invert)

# The thread map: a new layer above, tinted by work-group.
thread_map = pdb.lookup_procedure('plug-in-threadlens-thread-map')
config = thread_map.create_config()
config.set_property('run-mode', Gimp.RunMode.NONINTERACTIVE)
config.set_property('image', image)
config.set_core_object_array('drawables', [layer])
config.set_property('overlay', 'work-group')
result = thread_map.run(config)
if result.index(0) != Gimp.PDBStatusType.SUCCESS:
    raise RuntimeError('thread map: ' + str(result.index(1)))

top = image.get_layers()[0]
print('TL-MAP-LAYER ' + top.get_name())
top.set_visible(False)
Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image,
               Gio.File.new_for_path(os.environ['TL_OUT']), None)
image.delete()
