#!/bin/bash
# .model-payload/xtblib.tar.xz (git-ignored, ~7 MB): this machine's libxtb 6.5.1 with the Fortran, OpenMP and
# BLAS libraries it links, for device_organic.sh on a GPU machine that has no xtb (the labels are computed there).
set -e
cd "$(dirname "$0")/../.."
s=$(mktemp -d)
mkdir -p $s/lib .model-payload
cp -L /usr/lib/x86_64-linux-gnu/libxtb.so.6 \
  /lib/x86_64-linux-gnu/{libopenblas.so.0,libmctc-lib.so.0,libgfortran.so.5,libgomp.so.1,libquadmath.so.0} $s/lib/
tar -cJf .model-payload/xtblib.tar.xz -C $s lib && rm -rf $s && ls -la .model-payload/xtblib.tar.xz
