# Runs k_stream (l2_stream_probe.cu, compiled to PTX beforehand): GB/s per block when B blocks each read the same
# L2-resident buffer, B = 1 .. 16 (one block per multiprocessor).
#   python3 scripts/probes/l2_stream_probe.py l2.ptx        (on the GPU machine; docs/benchmarks.md)
import statistics, sys
from driver import C, cu, ck
mod = C.c_void_p(); ck(cu.cuModuleLoadData(C.byref(mod), C.c_char_p(open(sys.argv[1], "rb").read() + b"\0")), "module")
fn = C.c_void_p(); ck(cu.cuModuleGetFunction(C.byref(fn), mod, b"k_stream"), "function")
stream = C.c_void_p(); ck(cu.cuStreamCreate(C.byref(stream), 1), "stream")
nbytes = 4_400_000 // 16 * 16
buf = C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(buf), nbytes), "alloc"); ck(cu.cuMemsetD8_v2(buf, 0, nbytes), "memset")
out = C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(out), 4 * 256), "alloc")
e0, e1 = C.c_void_p(), C.c_void_p(); ck(cu.cuEventCreate(C.byref(e0), 0), "event"); ck(cu.cuEventCreate(C.byref(e1), 0), "event")
def run(blocks, passes):
    b = C.c_uint64(buf.value); n4 = C.c_longlong(nbytes // 16); ps = C.c_int(passes); o = C.c_uint64(out.value)
    args = (C.c_void_p * 4)(*[C.cast(C.byref(x), C.c_void_p) for x in (b, n4, ps, o)])
    launch = lambda: ck(cu.cuLaunchKernel(fn, blocks, 1, 1, 1024, 1, 1, 0, stream, args, None), "launch")
    launch(); ck(cu.cuStreamSynchronize(stream), "sync")
    ts = []
    for _ in range(5):
        ck(cu.cuEventRecord(e0, stream), "record"); launch(); ck(cu.cuEventRecord(e1, stream), "record")
        ck(cu.cuEventSynchronize(e1), "sync")
        ms = C.c_float(); ck(cu.cuEventElapsedTime(C.byref(ms), e0, e1), "elapsed"); ts.append(ms.value * 1000)
    return statistics.median(ts)
print(f"buffer {nbytes / 1e6:.2f} MB | blocks | us per pass (from 1 and 11 passes) | GB/s per block")
for blocks in (1, 2, 4, 8, 16):
    a, b = run(blocks, 1), run(blocks, 11)
    per = (b - a) / 10
    print(f"{blocks:3d} | {per:8.2f} | {nbytes / per / 1e3:7.1f}", flush=True)
