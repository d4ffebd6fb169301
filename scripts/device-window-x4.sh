#!/usr/bin/env bash
# One device window on an nvidia-h200-x4 machine (4 H200s, 64 cores), three commands of < 10 minutes chained so
# the machine stays warm: the organic student's data and data-parallel training run detached on GPUs 2,3 while the
# measurements of issues 28, 29 and 31 use GPUs 0,1 (never the same GPU: timings stay clean).
#
#   call1: unpack the bundles; start forcefield/training/device_organic.sh multi (data on cores 16-63, then training
#          on GPUs 2,3 pinned to cores 56-63); gpu3-run.sh (issue 29) on GPU 0 and the Langevin temperature run
#          (issue 31) on GPU 1, side by side on cores 0-15
#   call2: the two-GPU sweep (issue 31) on GPUs 0,1 and the 2 fs / 0.5 fs distributions (issue 28, cpu platform)
#          on cores 16-55
#   call3: nanoseconds per day with constraints (issue 28) on GPU 0; then, once the training pipeline is DONE, the
#          organic validate survey (issue 27) with the new weights on cores 0-59
# Each call copies the pipeline's outputs so far into $OUT (a lost machine keeps the best weights).
# Carry: .device/g3.tar.xz (this script's `bundle` phase, run here first), .model-payload/xtblib.tar.xz
# (forcefield/training/make_organic_payload.sh) and, where the checkout is sparse to fit the 64 MiB (git
# sparse-checkout without forcefield/training/data and runs, docs, forcefield-torchscript), .device/data.tar.xz
# (forcefield/training/data's files uncompressed, tar | xz -9e).
set -uo pipefail
phase=$1
out=${OUT:-/tmp/window-out}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
work=.organic-run            # git-ignored, outlives one command while the machine stays warm
b=/tmp/b
copy_pipeline() { mkdir -p "$out/organic" && cp -r "$work/out/." "$out/organic/" 2>/dev/null; tail -3 "$work/pipeline.log"; }
xtb_dir() { echo "$PWD/$work/lib"; }

case "$phase" in
  bundle)
    # on the development machine: one bundle for every measurement (gpu-bundle.sh's, plus the sweep's jars and
    # the JDK modules Hazelcast needs), the model and the fatbin taken out of the jars (the checkout's copies serve)
    set -e
    root=$(cd "$(dirname "$0")/.." && pwd); dest=$root/.device/g3
    jdk=${JLINK_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}
    rm -rf "$dest"; mkdir -p "$dest"
    "$jdk/bin/jlink" --add-modules java.base,java.logging,java.management,java.naming,java.sql,java.scripting,java.transaction.xa,jdk.unsupported \
      --strip-debug --no-header-files --no-man-pages --output "$dest/jre"
    strip --strip-unneeded "$dest/jre/lib/server/libjvm.so"
    rm -f "$dest"/jre/lib/server/classes*.jsa   # the class-data-sharing archive: a faster JVM start, 13 MB
    GPUCHECK_REF=0 bash "$root/scripts/gpu-bundle.sh" "$dest" > /dev/null 2>&1 || true
    ls "$dest"/lib/cli-*.jar > /dev/null   # gpu-bundle.sh built it (its size line may fail outside a checkout)
    # NO_SWEEP=1: without the sweep module's jar and Hazelcast (57 MB of jar, ~7 MB packed), for windows that run no
    # sweep (device-window-h200.sh: the checkout and its carries must stay under 64 MiB); the other libraries that
    # validate and the CLI need (Commons Math, XChart, ...) come through the sweep's dependencies either way
    # the dependencies are copied in the same reactor build: sweep built alone would look for its sibling modules in
    # ~/.m2, where nothing is installed (a fresh machine's ~/.m2 has none of them)
    deps=$(mktemp -d)
    (cd "$root" && mvn -o -q -DskipTests -pl sweep -am package dependency:copy-dependencies -DincludeScope=runtime \
      -DoutputDirectory="$deps" >/dev/null)
    [[ ${NO_SWEEP:-0} == 1 ]] || cp "$root"/sweep/target/sweep-*[0-9T].jar "$dest/lib/"
    [[ ${NO_SWEEP:-0} != 1 ]] || rm -f "$deps"/hazelcast-*.jar
    for j in "$deps"/*.jar; do
      [[ -e $j ]] || continue   # none: NO_SWEEP
      n=$(basename "$j")
      case $n in
        pytorch-*|api-0.*|forcefield-torchscript-*|junit-*|opentest4j-*|apiguardian-*|jcuda-natives-*|molten-*) ;;
        md-core-*|structures-*|forcefield-*|platform-cuda-*|teacher-xtb-*|integrators-*|validation-*|bench-*|cli-*) ;;
        pdfbox-*|fontbox-*|graphics2d-*|VectorGraphics2D-*|animated-gif-*|commons-logging-*) ;;
        *) [[ -f $dest/lib/$n ]] || cp "$j" "$dest/lib/" ;;
      esac
    done
    rm -rf "$deps"
    zip -q -d "$dest"/lib/forcefield-*.jar '*.safetensors' > /dev/null || true
    # KEEP_FATBIN=1: a variants branch's fatbin stays in its jar (first on every class path of the bundle), so that
    # the bundle times that branch's kernels wherever it runs (the patch series' README, kept in git history once it has landed)
    [[ ${KEEP_FATBIN:-0} == 1 ]] || zip -q -d "$dest"/lib/platform-cuda-*.jar '*.fatbin' > /dev/null || true
    # the device machines are linux-x86-64: JNA's and JLine's native libraries for the other platforms go (~2 MB of the
    # packed bundle, which with the kernels kept must fit a sparse checkout and its carries under the tool's 64 MiB)
    for j in "$dest"/lib/jna-[0-9]*.jar "$dest"/lib/jline-native-*.jar; do
      [[ -e $j ]] || continue
      mapfile -t foreign < <(unzip -Z1 "$j" | grep -E '^(com/sun/jna/[^/]+/|org/jline/nativ/.+/).+\.(so|a|dll|dylib|jnilib)$' \
        | grep -v -E '^(com/sun/jna/linux-x86-64/|org/jline/nativ/Linux/x86_64/)')
      (( ${#foreign[@]} )) && zip -q -d "$j" "${foreign[@]}" > /dev/null
    done
    cp "$root"/scripts/{gpu-langevin-temperature-run.sh,constraints-figures-run.sh,sweep-2gpu-run.sh,gpu3-run.sh} "$dest/"
    # jars stored, not deflated: xz then packs the classes themselves, a third smaller than the deflated jars
    for j in "$dest"/lib/*.jar; do
      t=$(mktemp -d); (cd "$t" && unzip -q "$j" && rm -f "$j" && zip -q -0 -r -X "$j" .); rm -rf "$t"
    done
    tar -C "$root/.device" -cf - g3 | xz -9e -T2 > "$root/.device/g3.tar.xz"
    echo "bundle: $(du -h "$root/.device/g3.tar.xz" | cut -f1)"
    exit 0
    ;;
  call1)
    nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
    mkdir -p $b && XZ_OPT=-T0 tar -C $b -xJf .device/g3.tar.xz
    ls $b
    if [[ -f .device/data.tar.xz ]]; then
      # v1-v5's six-molecule data travel recompressed (xz of the plain text: 17.7 MB for 21.4 of gzip) where the
      # sparse checkout leaves the folder out. Unpacked into the ignored WORK: each command's copy of the checkout
      # resets tracked paths, so a folder unpacked there is emptied by the next command. The loaders read *.xyz.gz.
      mkdir -p "$work/v5data" && XZ_OPT=-T0 tar -C "$work/v5data" -xJf .device/data.tar.xz
      ls "$work"/v5data/*.xyz | xargs -P 16 -n 1 gzip -1
      export V5DATA=$work/v5data
    fi
    mkdir -p "$work/out"
    # bash reads a script as it runs: the pipeline runs a copy that the next command's copy of the checkout cannot touch
    cp forcefield/training/device_organic.sh "$work/device_organic.sh"
    DATA_CPUS=16-63 DATA_WORKERS=48 TRAIN_GPUS=2,3 TRAIN_CPUS=56-63 BATCH=${BATCH:-256} LR=${LR:-1e-3} \
      DATA_OPTS="--train-frames ${TRAIN_FRAMES:-16}" EVAL_BUDGET_S=150 COMMIT=${COMMIT:-unknown} \
      SYSTEM_WEIGHTS="--system-weight water=2 --system-weight ethanol=2 --system-weight benzene=2 --system-weight alanine-dipeptide=2 --system-weight ace-ala5-nme=2 --system-weight water-clusters=2" \
      setsid nohup bash "$work/device_organic.sh" multi "$work" "$work/out" "${DEADLINE_S:-1450}" \
      > "$work/pipeline.log" 2>&1 < /dev/null &
    sleep 2
    ( CUDA_VISIBLE_DEVICES=1 OUT=$out/langevin BUDGET=${LANGEVIN_BUDGET:-480} taskset -c 8-15 \
        bash $b/g3/gpu-langevin-temperature-run.sh > "$out/langevin.txt" 2>&1 ) &
    CUDA_VISIBLE_DEVICES=0 OUT=$out/gpu3 BUDGET=${GPU3_BUDGET:-500} taskset -c 0-7 bash $b/g3/gpu3-run.sh > "$out/gpu3.txt" 2>&1
    wait
    tail -25 "$out/gpu3.txt"; tail -8 "$out/langevin.txt"
    copy_pipeline
    ;;
  call2)
    ( CUDA_VISIBLE_DEVICES=0,1 OUT=$out/sweep BUDGET=${SWEEP_BUDGET:-520} taskset -c 0-15 \
        bash $b/g3/sweep-2gpu-run.sh > "$out/sweep.txt" 2>&1 ) &
    if [[ -f scripts/constraints-distributions.sh ]]; then
      HERE=$b/g3 OUT=$out/dist PARALLEL=40 BUDGET=${DIST_BUDGET:-500} taskset -c 16-55 \
        bash scripts/constraints-distributions.sh > "$out/dist.txt" 2>&1
    fi
    wait
    tail -20 "$out/sweep.txt"; tail -20 "$out/dist.txt" 2>/dev/null
    copy_pipeline
    ;;
  call3)
    CUDA_VISIBLE_DEVICES=0 OUT=$out/constraints BUDGET=${CONSTRAINTS_BUDGET:-240} taskset -c 0-7 \
      bash $b/g3/constraints-figures-run.sh > "$out/constraints.txt" 2>&1
    tail -12 "$out/constraints.txt"
    left=$(( ${CALL_S:-560} - SECONDS ))
    while [[ ! -f $work/out/DONE ]] && (( left > 60 )); do sleep 10; left=$(( ${CALL_S:-560} - SECONDS )); done
    copy_pipeline
    if [[ -f $work/out/student-gfn2-v6.safetensors && -f scripts/organic-validate-survey.sh ]]; then
      HERE=$b/g3 MODEL=$PWD/$work/out/student-gfn2-v6.safetensors LIBXTB_DIR=$(xtb_dir) OUT=$out/survey PARALLEL=56 \
        BUDGET=$(( ${CALL_S:-560} - SECONDS - 15 )) taskset -c 0-59 bash scripts/organic-validate-survey.sh \
        > "$out/survey.txt" 2>&1
      tail -15 "$out/survey.txt"
    fi
    ;;
  call4)
    # A second, short window (after the constraints reached the cuda platform): everything side by side, < 6 min.
    #   GPU 0, cores 0-7: ns/day with constraints (issue 28), then verlet / langevin / nose-hoover steps/s (issue 29:
    #     the first window's langevin runs ended with "CUDA context already closed", since mended)
    #   GPUs 1, 2, cores 8-15: the sweep's kill run alone (issue 31; a member SIGKILLed mid-batch loses nothing)
    #   GPU 3, cores 8-15: the Langevin temperature at 2 fs with h-bonds (issue 31), and MLIPAudit's stability protocol
    #     for the organic preview as far as its budget goes (issue 27)
    #   cores 16-47: the organic validate survey (issue 27); cores 48-63: the 2 fs / 0.5 fs distributions (issue 28)
    nvidia-smi --query-gpu=index,name,driver_version --format=csv
    [[ -d $b/g3 ]] || { mkdir -p $b && XZ_OPT=-T0 tar -C $b -xJf .device/g3.tar.xz; }
    mkdir -p "$work" && tar -C "$work" -xJf .model-payload/xtblib.tar.xz
    export LD_LIBRARY_PATH="$PWD/$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    java=("$b/g3/jre/bin/java" -Xmx40g -Xss8m -XX:+UseParallelGC --enable-native-access=ALL-UNNAMED
      -cp "$b/g3/lib/*:$PWD/forcefield/src/main/resources:$PWD/platform-cuda/src/main/resources")
    preview=$PWD/forcefield/src/main/resources/org/molten/forcefield/student/student-gfn2-organic-preview.safetensors
    ( CUDA_VISIBLE_DEVICES=0 OUT=$out/constraints BUDGET=${CONSTRAINTS_BUDGET:-200} taskset -c 0-7 \
        bash $b/g3/constraints-figures-run.sh > "$out/constraints.txt" 2>&1
      for sys in ethanol alanine-dipeptide ace-ala5-nme; do for integ in verlet langevin nose-hoover; do
        CUDA_VISIBLE_DEVICES=0 timeout 40 taskset -c 0-7 "${java[@]}" org.molten.cli.MoltenCli run --system $sys --device cuda \
          --integrator $integ --steps 40000 --seed 7 > "$out/run-$sys-$integ.txt" 2>&1
        echo "$sys $integ exit $? $(grep -oE '[0-9]+ steps/s' "$out/run-$sys-$integ.txt" | tail -1)" >> "$out/thermostats.txt"
      done; done ) &
    ( GPU_IDS="1 2" RUNS=kill SEEDS=4 OUT=$out/sweep-kill BUDGET=${KILL_BUDGET:-300} taskset -c 8-15 \
        bash $b/g3/sweep-2gpu-run.sh > "$out/sweep-kill.txt" 2>&1 ) &
    ( CUDA_VISIBLE_DEVICES=3 timeout ${T2FS_BUDGET:-300} taskset -c 8-15 "${java[@]}" org.molten.cli.MoltenCli validate \
        --device cuda --systems ethanol,alanine-dipeptide --replicas 16 --steps 25000 --timestep 2 --constraints h-bonds \
        --teacher-frames 0 --out "$out/langevin-2fs" > "$out/langevin-2fs.txt" 2>&1
      echo "validate exit $?" >> "$out/langevin-2fs.txt" ) &
    ( CUDA_VISIBLE_DEVICES=3 taskset -c 8-15 python3 forcefield/training/organic_eval.py --weights "$preview" \
        --starts forcefield/training/organic/starts.test.xyz.gz --replicas 1 --ps 100 --budget-s ${STAB_BUDGET:-290} \
        --out "$out/stability.json" > "$out/stability.txt" 2>&1 ) &
    if [[ -f scripts/organic-validate-survey.sh ]]; then
      ( MOLTEN=$b/g3 MODEL=$preview LIBXTB_DIR=$PWD/$work/lib OUT=$out/survey PARALLEL=32 STABILITY=0 \
          BUDGET=${SURVEY_BUDGET:-300} taskset -c 16-47 bash scripts/organic-validate-survey.sh > "$out/survey.txt" 2>&1 ) &
    fi
    HERE=$b/g3 WORK=/tmp/cdist-runs PARALLEL=16 SEEDS=6 SEEDS_WATER=2 BUDGET=${DIST_BUDGET:-300} taskset -c 48-63 \
      bash scripts/constraints-distributions.sh "$out/constraints-distributions" > "$out/dist.txt" 2>&1
    wait
    tail -12 "$out/constraints.txt"; cat "$out/thermostats.txt"; tail -6 "$out/sweep-kill.txt"
    grep -E "mean-temperature|temperature-fluctuation|exit" "$out/langevin-2fs.txt" | tail -6
    tail -4 "$out/stability.txt"; tail -10 "$out/survey.txt" 2>/dev/null; tail -25 "$out/dist.txt"
    rm -rf "$out"/run-*.txt "$out/langevin-2fs"/*.csv
    # one file back (the transfer returns a limited count of files): everything in window2.tgz
    tar -C "$out" -czf /tmp/window2.tgz . && find "$out" -mindepth 1 -delete && mv /tmp/window2.tgz "$out/"
    ;;
  *) echo "unknown phase $phase (call1, call2, call3, call4)"; exit 2 ;;
esac
