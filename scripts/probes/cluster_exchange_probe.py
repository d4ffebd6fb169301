# Runs k_exchange (cluster_exchange_probe.cu, compiled to PTX beforehand) through ctypes against libcuda:
# time per exchange round of a 16-block cluster, for several payloads W (floats per destination block).
#   nvcc -ptx -arch=sm_90 -O3 -I platform-cuda/src/main/cuda -o exchange.ptx scripts/probes/cluster_exchange_probe.cu
#   python3 scripts/probes/cluster_exchange_probe.py exchange.ptx        (on the GPU machine; docs/benchmarks.md)
import statistics, sys
from driver import C, cu, ck
mod = C.c_void_p(); ck(cu.cuModuleLoadData(C.byref(mod), C.c_char_p(open(sys.argv[1], "rb").read() + b"\0")), "module")
fn = C.c_void_p(); ck(cu.cuModuleGetFunction(C.byref(fn), mod, b"k_exchange"), "function")
ck(cu.cuFuncSetAttribute(fn, 14, 1), "non-portable cluster")        # CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED
ck(cu.cuFuncSetAttribute(fn, 8, 200 * 1024), "shared memory")       # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
stream = C.c_void_p(); ck(cu.cuStreamCreate(C.byref(stream), 1), "stream")
out = C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(out), 64 * 4), "alloc")
e0, e1 = C.c_void_p(), C.c_void_p(); ck(cu.cuEventCreate(C.byref(e0), 0), "event"); ck(cu.cuEventCreate(C.byref(e1), 0), "event")
def run(rounds, w, reps=20):
    p = C.c_uint64(out.value); r = C.c_int(rounds); ww = C.c_int(w)
    args = (C.c_void_p * 3)(C.cast(C.byref(p), C.c_void_p), C.cast(C.byref(r), C.c_void_p), C.cast(C.byref(ww), C.c_void_p))
    smem = (8 + 32 * w) * 4
    launch = lambda: ck(cu.cuLaunchKernel(fn, 16, 1, 1, 256, 1, 1, smem, stream, args, None), "launch")
    launch(); ck(cu.cuStreamSynchronize(stream), "sync")
    ts = []
    for _ in range(5):
        ck(cu.cuEventRecord(e0, stream), "record")
        for _ in range(reps): launch()
        ck(cu.cuEventRecord(e1, stream), "record"); ck(cu.cuEventSynchronize(e1), "sync")
        ms = C.c_float(); ck(cu.cuEventElapsedTime(C.byref(ms), e0, e1), "elapsed"); ts.append(ms.value * 1000 / reps)
    return statistics.median(ts)
print("W (floats per destination) | us per launch: 1 round, 1001 rounds | us per exchange round")
for w in (4, 32, 96, 288, 512):
    a, b = run(1, w), run(1001, w)
    print(f"{w:4d} | {a:8.2f} {b:9.1f} | {(b - a) / 1000:6.3f}", flush=True)
