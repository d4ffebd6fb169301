#!/bin/bash
# Packs what device_active.sh needs into .model-payload/payload.tar.xz (git-ignored; carried to the GPU
# machine): the training code, the data, the start molecules, the test set, the bundled weights,
# state files of earlier rounds given as arguments, and this machine's xtb 6.5.1 with its libraries.
set -e
cd "$(dirname "$0")/../.."
s=.model-payload/stage
mkdir -p $s/xtb/bin $s/xtb/lib
cp /usr/bin/xtb $s/xtb/bin/xtb.real
cp -L /lib/x86_64-linux-gnu/{libopenblas.so.0,libmctc-lib.so.0,libgfortran.so.5,libquadmath.so.0,libgomp.so.1} $s/xtb/lib/
rm -rf $s/xtb/share && cp -r /usr/share/xtb $s/xtb/share
cat > $s/xtb/bin/xtb <<'EOS'
#!/bin/sh
d=$(cd "$(dirname "$0")/.." && pwd)
LD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" XTBPATH="$d/share" exec "$d/bin/xtb.real" "$@"
EOS
chmod +x $s/xtb/bin/xtb
rm -f .model-payload/payload.tar*; tar -cf .model-payload/payload.tar -C $s xtb \
  && tar -rf .model-payload/payload.tar forcefield/training/*.py forcefield/training/*.sh forcefield/training/data/*.gz \
     structures/src/main/resources/org/molten/structures/molecules \
     forcefield/src/main/resources/org/molten/forcefield/student/testset \
     forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2.safetensors "$@"
xz -T2 -3 .model-payload/payload.tar && ls -la .model-payload/payload.tar.xz
