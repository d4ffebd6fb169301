# Probe: cost per kernel node of a CUDA graph of 37 dependent kernels (as many as one MD step of the stage
# kernels), launched plainly or as programmatic dependents (PDL: cuLaunchKernelEx with
# CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION), with the launch_dependents trigger at the start of each
# block or none; for several grid sizes and amounts of work per thread. ctypes against libcuda, the PTX below
# JIT-compiled by the driver: runs wherever there is a driver and python3 (docs/benchmarks.md, fifth session).
#   python3 scripts/probes/graph_node_probe.py
import statistics
from driver import C, cu, ck
ptx = r"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry k_step(.param .u64 p, .param .u32 iters, .param .u32 trig)
{
  .reg .u64 %rd<8>; .reg .u32 %r<12>; .reg .f32 %f<4>; .reg .pred %p<3>;
  griddepcontrol.wait;
  ld.param.u32 %r9, [trig];
  setp.ne.u32 %p2, %r9, 0;
  @%p2 griddepcontrol.launch_dependents;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;
  mad.lo.u32 %r5, %r2, %r3, %r4;
  mul.wide.u32 %rd2, %r5, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.global.cg.f32 %f1, [%rd3];
  ld.param.u32 %r6, [iters];
  mov.u32 %r7, 0;
LOOP:
  setp.ge.u32 %p1, %r7, %r6;
  @%p1 bra DONE;
  fma.rn.f32 %f1, %f1, 0f3F7FF000, 0f3A800000;
  add.u32 %r7, %r7, 1;
  bra LOOP;
DONE:
  add.f32 %f1, %f1, 0f3F800000;
  st.global.f32 [%rd3], %f1;
  ret;
}
"""
mod = C.c_void_p(); ck(cu.cuModuleLoadData(C.byref(mod), C.c_char_p(ptx.encode())), "module")
fn = C.c_void_p(); ck(cu.cuModuleGetFunction(C.byref(fn), mod, b"k_step"), "fn")
stream = C.c_void_p(); ck(cu.cuStreamCreate(C.byref(stream), 1), "stream")
buf = C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(buf), 4 * 132 * 8 * 256), "alloc")
class Attr(C.Structure):
    _fields_ = [("id", C.c_uint32), ("pad", C.c_char * 4), ("val", C.c_char * 64)]
class Cfg(C.Structure):
    _fields_ = [("gx", C.c_uint), ("gy", C.c_uint), ("gz", C.c_uint), ("bx", C.c_uint), ("by", C.c_uint), ("bz", C.c_uint),
                ("smem", C.c_uint), ("stream", C.c_void_p), ("attrs", C.POINTER(Attr)), ("nattrs", C.c_uint)]
assert C.sizeof(Attr) == 72 and C.sizeof(Cfg) == 56, (C.sizeof(Attr), C.sizeof(Cfg))
attr = Attr(); attr.id = 6; C.memmove(C.addressof(attr) + 8, C.byref(C.c_int(1)), 4)
def launch(grid, iters, pdl, trig):
    p = C.c_uint64(buf.value); it = C.c_uint(iters); tg = C.c_uint(trig)
    args = (C.c_void_p * 3)(C.cast(C.byref(p), C.c_void_p), C.cast(C.byref(it), C.c_void_p), C.cast(C.byref(tg), C.c_void_p))
    cfg = Cfg(grid, 1, 1, 256, 1, 1, 0, stream, C.pointer(attr) if pdl else None, 1 if pdl else 0)
    ck(cu.cuLaunchKernelEx(C.byref(cfg), fn, args, None), "launchEx")
def graph(nodes, grid, iters, pdl, trig):
    ck(cu.cuStreamBeginCapture_v2(stream, 0), "begin")
    for _ in range(nodes): launch(grid, iters, pdl, trig)
    g = C.c_void_p(); ck(cu.cuStreamEndCapture(stream, C.byref(g)), "end")
    ex = C.c_void_p(); ck(cu.cuGraphInstantiateWithFlags(C.byref(ex), g, C.c_ulonglong(0)), "inst")
    return ex
e0, e1 = C.c_void_p(), C.c_void_p(); ck(cu.cuEventCreate(C.byref(e0), 0), "ev"); ck(cu.cuEventCreate(C.byref(e1), 0), "ev")
def time_graph(ex, reps=200):
    for _ in range(20): ck(cu.cuGraphLaunch(ex, stream), "warm")
    ck(cu.cuStreamSynchronize(stream), "sync")
    ts = []
    for _ in range(7):
        ck(cu.cuEventRecord(e0, stream), "rec")
        for _ in range(reps): ck(cu.cuGraphLaunch(ex, stream), "launch")
        ck(cu.cuEventRecord(e1, stream), "rec"); ck(cu.cuEventSynchronize(e1), "esync")
        ms = C.c_float(); ck(cu.cuEventElapsedTime(C.byref(ms), e0, e1), "elapsed"); ts.append(ms.value * 1000 / reps)
    return statistics.median(ts)
print("nodes grid iters | plain_us  pdl_trigger_us  pdl_notrigger_us | per-node plain / pdl")
for grid in (8, 132, 264, 528):
    for iters in (0, 1000, 4000):
        nodes = 37
        r = {}
        for name, pdl, trig in (("plain", 0, 1), ("pdl", 1, 1), ("pdl_nt", 1, 0)):
            r[name] = time_graph(graph(nodes, grid, iters, pdl, trig))
        one = time_graph(graph(1, grid, iters, 0, 1))
        print(f"{nodes} {grid:4d} {iters:5d} | {r['plain']:8.2f} {r['pdl']:8.2f} {r['pdl_nt']:8.2f} | single-node graph {one:6.2f}"
              f" | per node {r['plain']/nodes:5.2f} / {r['pdl']/nodes:5.2f}", flush=True)
