/* ThreadLens: errors shared by the engine and its front ends.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tl-error.h"

G_DEFINE_QUARK (threadlens-error-quark, tl_error)
