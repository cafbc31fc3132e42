# ThreadLens: a throwaway GIMP 2.10 profile with the built plug-in
# installed in it.  Source it from the top of the checkout after a build;
# it sets TL_PROFILE and the environment GIMP reads, and removes the
# profile on exit.

TL_PROFILE=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-gimp2-XXXXXX")
trap 'rm -rf "$TL_PROFILE"' EXIT INT TERM

export HOME="$TL_PROFILE/home"
export XDG_CONFIG_HOME="$HOME/.config" XDG_CACHE_HOME="$HOME/.cache"
export GIMP2_DIRECTORY="$TL_PROFILE/gimp-2.10"

# A profile folder made before GIMP's first start must hold the data
# folders GIMP expects, or GIMP complains about each.
for folder in brushes dynamics fonts gradients palettes patterns scripts \
              templates tool-presets; do
  mkdir -p "$GIMP2_DIRECTORY/$folder"
done
printf '<?xml version="1.0" encoding="UTF-8"?>\n<tags>\n</tags>\n' \
  > "$GIMP2_DIRECTORY/tags.xml"
mkdir -p "$XDG_CACHE_HOME"
meson compile -C _build install-user-gimp2 >/dev/null
