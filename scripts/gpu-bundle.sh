#!/usr/bin/env bash
# Builds what scripts/gpu-check.sh needs on the GPU machine (which has no Java and no Maven) into
# DEST (default: .device/gpu of this checkout, git-ignored): a jlinked
# Temurin 25 runtime, the runtime jars of the GPU path (JCuda's natives cut down to the driver
# binding), the checks (GpuCheck, ReplicaCheck, FirstStep: platform-cuda's test classes, as molten-tools.jar),
# the check scripts and the PyTorch baseline. Copy .device/gpu to the GPU machine beside a checkout and run
# .device/gpu/gpu-check.sh, or pack it (tar -C .device -cJf .device/gpu.tar.xz gpu) and copy only the archive.
# Builds with `mvn package`, never install (the shared ~/.m2 stays as it is): the project's own jars come from
# the modules' target folders.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$root/.device/gpu}
jdk=${JLINK_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
deps=$(mktemp -d)
trap 'rm -rf "$deps"' EXIT
# the third-party jars are copied in the same reactor build: a module built alone would look for its sibling
# modules (platform-cuda, teacher-xtb) in ~/.m2, where nothing is installed
(cd "$root" && mvn -o -q -DskipTests -pl forcefield,platform-cuda,validation,bench,cli -am package dependency:copy-dependencies \
  -DincludeScope=runtime -DoutputDirectory="$deps" \
  -DincludeArtifactIds=jcuda,jcuda-natives,jna,jackson-core,jackson-databind,jackson-annotations,progressbar,jline-terminal,jline-native,slf4j-api,slf4j-simple)
mkdir -p "$dest/lib"
if [[ ! -x "$dest/jre/bin/java" ]]; then
  "$jdk/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.unsupported \
    --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output "$dest/jre"
  # the JVM's symbol table is not needed to run it: 5 MB less to copy (the bundle and the checkout stay under 64 MiB)
  command -v strip >/dev/null && strip --strip-unneeded "$dest/jre/lib/server/libjvm.so"
fi
rm -f "$dest"/lib/*.jar
# forcefield and the CUDA platform (and the teacher, which validation's classes name): the TorchScript baseline (DJL, libtorch, the 4.7 MB export) and the ND4J GEMMs live in the
# optional modules forcefield-torchscript and forcefield-nd4j, which the GPU machine does not need
cp "$root/forcefield/target/forcefield-"*[0-9T].jar "$root/platform-cuda/target/platform-cuda-"*[0-9T].jar \
  "$root/teacher-xtb/target/teacher-xtb-"*[0-9T].jar "$root/md-core/target/md-core-"*[0-9T].jar \
  "$root/structures/target/structures-"*[0-9T].jar "$dest/lib/"
# the checks live in platform-cuda's test sources (not in the jar users get)
(cd "$root/platform-cuda/target/test-classes" && zip -q -r "$dest/lib/molten-tools.jar" org/molten/forcefield/cuda)
for j in jcuda-12 jna-5 jackson-core jackson-databind jackson-annotations; do
  cp "$deps/$j"*.jar "$dest/lib/"
done
# only the driver binding of JCuda's natives travels (the runtime/NVRTC ones are not used)
(cd "$deps" && mkdir nat && cd nat && unzip -q ../jcuda-natives-*-linux-x86_64.jar 'lib/libJCudaDriver-*' 'META-INF/MANIFEST.MF' \
  && zip -q -r "$dest/lib/jcuda-natives-driver-only.jar" .)
# the replica check and bench (scripts/gpu-replicas-run.sh) run molten bench: the CLI and its parser too
cp "$root/validation/target/validation-"*.jar "$root/bench/target/bench-"*.jar "$root/cli/target/cli-"*.jar \
  "$root/integrators/target/integrators-"*.jar "$dest/lib/"
cp ~/.m2/repository/info/picocli/picocli/4.7.6/picocli-4.7.6.jar "$dest/lib/"  # the version of the parent pom
# the CLI's progress bar (picocli resolves its types when the commands are built) and what it needs
for j in progressbar jline-terminal jline-native slf4j-api slf4j-simple; do cp "$deps/$j"-[0-9]*.jar "$dest/lib/"; done
cp "$root/scripts/gpu-check.sh" "$root/scripts/gpu-replicas-run.sh" "$root/scripts/gpu-startup-run.sh" \
  "$root/scripts/gpu-profile-run.sh" "$root/scripts/group-engine-run.sh" "$root/scripts/torch_painn_bench.py" "$root/scripts/torch_replica_bench.py" "$dest/"
# the PyTorch replica baseline's molecules (gpu-profile-run.sh takes the bundled model out of the forcefield jar)
mkdir -p "$dest/molecules"
cp "$root/structures/src/main/resources/org/molten/structures/molecules/"{ethanol,alanine-dipeptide}.xyz "$dest/molecules/"
# CPU reference trajectories of the NVE check (GpuCheck cpuref), made here: the reference student
# needs ~0.1 s per force evaluation, minutes of device time for 2 x 1,000 steps
# (GPUCHECK_REF=0 skips them: runs without GpuCheck's nve section, e.g. scripts/gpu-startup-run.sh)
ref="$root/platform-cuda/target/gpucheck-ref"
if [[ "${GPUCHECK_REF:-1}" == 1 && ! -f "$ref/alanine-dipeptide.nve.txt" ]]; then
  (cd "$root/platform-cuda" && mvn -o -q dependency:build-classpath -Dmdep.outputFile="$deps/cp.txt" >/dev/null)
  java -Xmx4g -cp "$root/md-core/target/classes:$root/structures/target/classes:$root/forcefield/target/classes:$root/platform-cuda/target/classes:$root/platform-cuda/target/test-classes:$(cat "$deps/cp.txt")" \
    org.molten.forcefield.cuda.GpuCheck cpuref "$ref"
fi
mkdir -p "$dest/ref"
if [[ -f "$ref/alanine-dipeptide.nve.txt" ]]; then cp "$ref"/*.nve.txt "$dest/ref/"; fi
du -sh "$dest/jre" "$dest/lib"
bundle=$(du -sb "$dest" | cut -f1)
main=$(cd "$(dirname "$dest")/.." && git ls-files -z 2>/dev/null | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1 || echo 0)
echo "bundle $((bundle / 1048576)) MiB + checkout $((main / 1048576)) MiB (keep the two under 64 MiB)"
