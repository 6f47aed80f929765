#!/bin/sh
# Fetches a newer lavapipe (Mesa's Vulkan driver on the CPU) from Debian 12's backports into a
# directory of its own, without installing anything, and prints the environment that makes the
# Vulkan loader use it:
#
#   eval "$(scripts/newer-lavapipe.sh)"      # then run spire run / the corpus tests as usual
#
# Debian 12's own lavapipe (Mesa 22.3) lacks descriptor indexing, mesh shaders, ray queries,
# compute derivatives and more, so the DXIL pipeline and differential tests skip the shaders
# that use them; Mesa 25 from backports has most of these. The build does not depend on it;
# the test `newer-lavapipe` (tests/newer-lavapipe.sh) runs the Vulkan checks again on it, and
# says it skipped them when it cannot be fetched.
# The packages are pinned (version and SHA-256), so that a newer backport cannot change what
# the tests see; --latest takes whatever the backports index holds instead.
# Options: --dir DIR (where to unpack; default build/lavapipe-backports), --latest.
set -eu
dir=build/lavapipe-backports
latest=
while [ $# -gt 0 ]; do
  case "$1" in
  --dir) dir=$2; shift 2 ;;
  --latest) latest=1; shift ;;
  *) echo "newer-lavapipe.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# package, its file in the pool, its SHA-256
pinned="mesa-vulkan-drivers pool/main/m/mesa/mesa-vulkan-drivers_25.0.7-2~bpo12+1_amd64.deb 3899f1800424c60a05df5d6913076a526ca8fdbabec43672cd397563d1ca3263
libdrm2 pool/main/libd/libdrm/libdrm2_2.4.123-1~bpo12+1_amd64.deb 9cc2f341964286295124a32d3625edb76730500625e54a1e682761f883064d7b
libdrm-amdgpu1 pool/main/libd/libdrm/libdrm-amdgpu1_2.4.123-1~bpo12+1_amd64.deb 334e2ae389af0e9cb607c2ccfbbf7ae9feb34131ff998550baeffeeae6cda296"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
lib=$dir/root/usr/lib/x86_64-linux-gnu
if [ ! -f "$lib/libvulkan_lvp.so" ]; then
  command -v curl >/dev/null || { echo "newer-lavapipe.sh: needs curl" >&2; exit 1; }
  if [ -n "$latest" ]; then
    index=$dir/Packages
    curl -fsS "$mirror/dists/bookworm-backports/main/binary-amd64/Packages.xz" | xz -dc >"$index" ||
      { echo "newer-lavapipe.sh: cannot read bookworm-backports from $mirror" >&2; exit 1; }
    pinned=$(for p in mesa-vulkan-drivers libdrm2 libdrm-amdgpu1; do
      awk -v p="$p" '$1 == "Package:" { on = ($2 == p) }
                     on && $1 == "Filename:" { f = $2 }
                     on && $1 == "SHA256:" { print p, f, $2; exit }' "$index"
    done)
  fi
  rm -rf "$dir/root" "$dir/root.new"
  echo "$pinned" | while read -r p file sum; do
    [ -n "$file" ] || { echo "newer-lavapipe.sh: $p is not in bookworm-backports" >&2; exit 1; }
    curl -fsS -o "$dir/$p.deb" "$mirror/$file" ||
      { echo "newer-lavapipe.sh: cannot fetch $mirror/$file" >&2; exit 1; }
    echo "$sum  $dir/$p.deb" | sha256sum -c --status ||
      { echo "newer-lavapipe.sh: $p.deb does not have the SHA-256 pinned here" >&2; exit 1; }
    dpkg-deb -x "$dir/$p.deb" "$dir/root.new"
  done
  mv "$dir/root.new" "$dir/root" # only when every package is there
fi
[ -f "$lib/libvulkan_lvp.so" ] || { echo "newer-lavapipe.sh: no libvulkan_lvp.so unpacked" >&2; exit 1; }
cat >"$dir/lvp_icd.json" <<JSON
{"file_format_version": "1.0.1", "ICD": {"library_path": "$lib/libvulkan_lvp.so", "api_version": "1.4.305"}}
JSON
echo "export VK_DRIVER_FILES=$dir/lvp_icd.json VK_ICD_FILENAMES=$dir/lvp_icd.json LD_LIBRARY_PATH=$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
