# The CUDA driver through ctypes, for the probes in this folder: the library, a checked call, and the primary
# context of device 0 made current (the probes run where there is a driver and python3, no CUDA toolkit).
import ctypes as C

cu = C.CDLL("libcuda.so.1")


def ck(r, what):
    """Raises with the driver's message unless r is CUDA_SUCCESS."""
    if r != 0:
        s = C.c_char_p()
        cu.cuGetErrorString(r, C.byref(s))
        raise RuntimeError(f"{what}: {r} {s.value}")


ck(cu.cuInit(0), "init")
_dev = C.c_int()
ck(cu.cuDeviceGet(C.byref(_dev), 0), "device")
_ctx = C.c_void_p()
ck(cu.cuDevicePrimaryCtxRetain(C.byref(_ctx), _dev), "context")
ck(cu.cuCtxSetCurrent(_ctx), "current")
