/* ThreadLens: how pixels are stored on their way to and from the device.
 *
 * A layer's pixels travel in the narrowest format that loses nothing for
 * that layer: 8-bit layers as 4 x u8, 16-bit as 4 x u16, half layers as
 * 4 x half, everything else as 4 x float.  Kernels read and write that
 * storage and compute in the filter's working format (its TRC and alpha
 * association); a TlCodec says how, and decodes and encodes on the CPU
 * the same way, bit for bit, for the C references.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_CODEC_H
#define TL_CODEC_H

#include <glib.h>
#include <babl/babl.h>

G_BEGIN_DECLS

typedef enum
{
  TL_STORAGE_FLOAT,     /* already in the working format; no conversion */
  TL_STORAGE_HALF,
  TL_STORAGE_U16,
  TL_STORAGE_U8
} TlStorageType;

typedef struct _TlCodec TlCodec;

TlCodec       *tl_codec_new            (const Babl      *layer_format,
                                        const gchar     *working_format,
                                        GError         **error);
TlCodec       *tl_codec_new_float      (const Babl      *layer_format,
                                        const gchar     *working_format,
                                        GError         **error);
TlCodec       *tl_codec_new_for_storage (const gchar    *storage,
                                         const Babl     *space,
                                         const gchar    *working_format,
                                         GError        **error);
void           tl_codec_free           (TlCodec         *codec);

TlStorageType  tl_codec_get_storage    (const TlCodec   *codec);
const gchar   *tl_codec_storage_name   (TlStorageType    storage);
const Babl    *tl_codec_get_format     (const TlCodec   *codec);
const Babl    *tl_codec_get_working    (const TlCodec   *codec);
gsize          tl_codec_get_pixel_size (const TlCodec   *codec);
gboolean       tl_codec_converts_trc   (const TlCodec   *codec);
gboolean       tl_codec_is_narrow      (const TlCodec   *codec);
gboolean       tl_codec_premultiplies  (const TlCodec   *codec);
const gchar   *tl_codec_get_variant    (const TlCodec   *codec);
const gfloat  *tl_codec_get_table      (const TlCodec   *codec,
                                        gsize           *n_floats);

void           tl_codec_decode         (const TlCodec   *codec,
                                        gconstpointer    stored,
                                        gfloat          *working,
                                        gsize            n_pixels);
void           tl_codec_encode         (const TlCodec   *codec,
                                        const gfloat    *working,
                                        gpointer         stored,
                                        gsize            n_pixels);

/* IEEE half conversions, rounding to nearest even (vstore_half_rte). */
guint16        tl_codec_half_from_float (gfloat          value);
gfloat         tl_codec_half_to_float   (guint16         half);

/* VALUE rounded to the nearest half, ties to even, as a float: what
 * tl_codec_half_to_float (tl_codec_half_from_float (VALUE)) gives, inline
 * and without a branch for normal halves, for the C references' inner
 * loops over a scratch image of halves.
 */
static inline gfloat
tl_codec_half_round (gfloat value)
{
  union { gfloat f; guint32 u; } bits = { value };
  guint32 magnitude = bits.u & 0x7fffffff;

  /* Normal halves keep 11 significant bits: the 13 below go, ties to
   * even, a carry stepping the exponent.
   */
  if (magnitude >= 0x38800000 && magnitude < 0x477ff000)
    {
      bits.u += 0x0fff + ((bits.u >> 13) & 1);
      bits.u &= ~(guint32) 0x1fff;
      return bits.f;
    }
  return tl_codec_half_to_float (tl_codec_half_from_float (value));
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlCodec, tl_codec_free)

G_END_DECLS

#endif /* TL_CODEC_H */
