# ThreadLens's operation contract, as an XCF keeps it: every threadlens:*
# operation in one layer's filter stack at settings other than its
# defaults, each at half opacity so that every filter's result reaches
# the pixels.  Operation names, property names, types and meanings are
# frozen: a file saved with these must open with the same pixels.
#
# TL_CONTRACT_MODE=make (once, by a maintainer, in GIMP 3.0.4):
#   from TL_PHOTO, writes the XCF TL_XCF and what it shows, TL_PNG;
#   sh build-aux/gimp3-root.sh 'TL_CONTRACT_MAKE=1 meson test -C
#   $TL_GIMP3_BUILD test-gimp3-python' does it into tests/gimp3/.
# TL_CONTRACT_MODE=check (the gimp3 suite): opens TL_XCF, checks each
#   filter's operation, name and properties, and writes what the layer
#   shows to TL_PNG for the test to compare.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os

import gi
gi.require_version('Gimp', '3.0')
from gi.repository import Gimp, Gio

# Each operation's settings: none its default, dispatch choices among
# them (every dispatch gives the same pixels, but its properties must
# still be read back).
SETTINGS = [
    ('invert', {'mode': 'non-uniform', 'swizzle': 2}),
    ('color-matrix', {'matrix': '0.9,0.1,0,0,0.05,0.9,0.05,0,0,0.1,0.9,0,0,0,0,1'}),
    ('gaussian-blur', {'std-dev': 1.5, 'shape-width': 8, 'shape-height': 4}),
    ('brightness-contrast', {'contrast': 1.2, 'brightness': 0.05}),
    ('threshold', {'value': 0.4}),
    ('mono-mixer', {'red': 0.5, 'green': 0.3, 'blue': 0.2}),
    ('sepia', {'scale': 0.6}),
    ('box-blur', {'radius': 2.0}),
    ('edge-sobel', {'mode': 'emulated'}),
    ('pixelize', {'size': 3.0}),
    ('unsharp-mask', {'std-dev': 2.0, 'scale': 0.8}),
    ('posterize', {'levels': 12.0}),
    ('bilateral-filter', {'blur-radius': 3.0, 'edge-preservation': 10.0}),
    ('snn-mean', {'radius': 3.0, 'pairs': 1.0}),
    ('mean-curvature-blur', {'iterations': 5.0}),
    ('motion-blur-linear', {'length': 6.0, 'angle': 30.0}),
    ('difference-of-gaussians', {'radius1': 0.8, 'radius2': 1.6}),
    ('high-pass', {'std-dev': 3.0, 'contrast': 1.5}),
    ('noise-reduction', {'iterations': 2.0, 'pixels-per-item': 2}),
    ('median-blur', {'neighborhood': 0.0, 'radius': 2.0, 'percentile': 40.0}),
    ('thread-map', {'overlay': 'work-group', 'overlay-opacity': 0.3,
                    'filter': 'gaussian-blur', 'shape-width': 16,
                    'shape-height': 8}),
]

SUFFIX = ' (ThreadLens)'


def make(photo, xcf, png):
    pdb = Gimp.get_pdb()
    image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                           Gio.File.new_for_path(photo))
    image.scale(120, 80)
    layer = image.get_layers()[0]
    for name, properties in SETTINGS:
        if name == 'thread-map':
            # No procedure puts the map in a stack: a script can.
            live = Gimp.DrawableFilter.new(layer, 'threadlens:thread-map',
                                           'Thread Map' + SUFFIX)
            config = live.get_config()
            for key, value in properties.items():
                config.set_property(key, value)
            live.update()
            layer.append_filter(live)
            continue
        procedure = pdb.lookup_procedure('plug-in-threadlens-' + name)
        config = procedure.create_config()
        config.set_property('run-mode', Gimp.RunMode.NONINTERACTIVE)
        config.set_property('image', image)
        config.set_core_object_array('drawables', [layer])
        config.set_property('non-destructive', True)
        for key, value in properties.items():
            config.set_property(key, value)
        result = procedure.run(config)
        if result.index(0) != Gimp.PDBStatusType.SUCCESS:
            raise RuntimeError(name + ': ' + str(result.index(1)))
    for live in layer.get_filters():
        live.set_opacity(0.5)
        live.update()
    Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image,
                   Gio.File.new_for_path(xcf), None)
    Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image,
                   Gio.File.new_for_path(png), None)
    image.delete()


def numbers(text):
    """TEXT as a list of numbers (commas or spaces between), else None."""
    try:
        return [float(n) for n in text.replace(',', ' ').split()]
    except ValueError:
        return None


def same(a, b):
    if isinstance(b, float):
        # GIMP keeps a double property in single precision in an XCF.
        return abs(a - b) <= 1e-6 * max(1.0, abs(b))
    if isinstance(b, str) and numbers(b) is not None:
        # A list of numbers reads back in the module's own spelling.
        got = numbers(a)
        return (got is not None and len(got) == len(numbers(b)) and
                all(same(x, y) for x, y in zip(got, numbers(b))))
    return a == b


def check(xcf, png):
    image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                           Gio.File.new_for_path(xcf))
    layer = image.get_layers()[0]
    expected = dict(SETTINGS)
    found = layer.get_filters()
    names = sorted(f.get_operation_name() for f in found)
    wanted = sorted('threadlens:' + name for name, _ in SETTINGS)
    if names != wanted:
        raise RuntimeError('the stack holds %s, not %s' % (names, wanted))
    for live in found:
        name = live.get_operation_name()[len('threadlens:'):]
        if not live.get_name().endswith(SUFFIX):
            raise RuntimeError('%s is called %r' % (name, live.get_name()))
        config = live.get_config()
        for key, value in expected[name].items():
            got = config.get_property(key)
            if not same(got, value):
                raise RuntimeError('%s: %s is %r, not %r'
                                   % (name, key, got, value))
        print('TL-CONTRACT-OK ' + name)
    Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image,
                   Gio.File.new_for_path(png), None)
    image.delete()


if os.environ['TL_CONTRACT_MODE'] == 'make':
    make(os.environ['TL_PHOTO'], os.environ['TL_XCF'], os.environ['TL_PNG'])
else:
    check(os.environ['TL_XCF'], os.environ['TL_PNG'])
