#!/usr/bin/env bash
# The longer fuzzing run of the file readers (docs/fuzzing.md): each Jazzer @FuzzTest target in fuzzing
# mode (JAZZER_FUZZ=1) for its maxDuration (60 s), one after the other; prints per target the inputs tried
# ("Done N runs") and any finding. A finding's input is written next to the target's corpus
# (src/test/resources/.../<Test>Inputs/<target>/crash-*): fix the reader, rename the input, commit both.
# Run from the repository root: bash scripts/fuzz-readers.sh   (about 10 minutes on 2 cores)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${FUZZ_LOG_DIR:-target/fuzz-logs}
mkdir -p "$out"
run() {  # module, test class, target
  local log="$out/$2-$3.log"
  JAZZER_FUZZ=1 mvn -o -B -ntp -pl "$1" -am test -Dtest="$2#$3" -Dsurefire.failIfNoSpecifiedTests=false >"$log" 2>&1
  local rc=$?
  printf '%-28s %-18s %s %s\n' "$2" "$3" "$(grep -Eo 'Done [0-9]+ runs in [0-9]+ second\(s\)' "$log" | tail -1)" \
    "$( ((rc)) && grep -Eo 'FuzzTestFindingException: .{0,160}' "$log" | head -1 || echo 'no finding')"
}
run structures StructureReadersFuzzTest xyz
run structures StructureReadersFuzzTest extendedXyz
run structures StructureReadersFuzzTest pdb
run structures StructureReadersFuzzTest gzipExtendedXyz
run integrators CheckpointReaderFuzzTest checkpoint
run sweep SweepSpecReaderFuzzTest json
run sweep SweepSpecReaderFuzzTest yaml
