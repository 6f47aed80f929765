#!/bin/sh
# Fetches a newer lavapipe (Mesa's Vulkan driver on the CPU) from Debian 12's backports into a
# directory of its own, without installing anything, and prints the environment that makes the
# Vulkan loader use it:
#
#   eval "$(scripts/newer-lavapipe.sh)"      # then run spire run / the corpus tests as usual
#
# Debian 12's own lavapipe (Mesa 22.3) lacks descriptor indexing, mesh shaders, ray queries,
# compute derivatives and more, so the DXIL pipeline and differential tests skip the shaders
# that use them; Mesa 25 from backports has most of these. Nothing in the build or in `make
# test` depends on this: it is a way to run more of the checks without a GPU.
# Options: --dir DIR (where to unpack; default build/lavapipe-backports).
set -eu
dir=build/lavapipe-backports
while [ $# -gt 0 ]; do
  case "$1" in
  --dir) dir=$2; shift 2 ;;
  *) echo "newer-lavapipe.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
packages="mesa-vulkan-drivers libdrm2 libdrm-amdgpu1"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
lib=$dir/root/usr/lib/x86_64-linux-gnu
if [ ! -f "$lib/libvulkan_lvp.so" ]; then
  command -v curl >/dev/null || { echo "newer-lavapipe.sh: needs curl" >&2; exit 1; }
  index=$dir/Packages
  curl -fsS "$mirror/dists/bookworm-backports/main/binary-amd64/Packages.xz" | xz -dc >"$index" ||
    { echo "newer-lavapipe.sh: cannot read bookworm-backports from $mirror" >&2; exit 1; }
  for p in $packages; do
    file=$(awk -v p="$p" '$1 == "Package:" { on = ($2 == p) } on && $1 == "Filename:" { print $2; exit }' "$index")
    [ -n "$file" ] || { echo "newer-lavapipe.sh: $p is not in bookworm-backports" >&2; exit 1; }
    curl -fsS -o "$dir/$p.deb" "$mirror/$file"
    dpkg-deb -x "$dir/$p.deb" "$dir/root"
  done
fi
[ -f "$lib/libvulkan_lvp.so" ] || { echo "newer-lavapipe.sh: no libvulkan_lvp.so unpacked" >&2; exit 1; }
cat >"$dir/lvp_icd.json" <<EOF
{"file_format_version": "1.0.1", "ICD": {"library_path": "$lib/libvulkan_lvp.so", "api_version": "1.4.305"}}
EOF
echo "export VK_DRIVER_FILES=$dir/lvp_icd.json VK_ICD_FILENAMES=$dir/lvp_icd.json LD_LIBRARY_PATH=$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
