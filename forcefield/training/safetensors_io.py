"""Safetensors read/write for float32/float64 arrays (the format: 8-byte little-endian header length,
JSON header with dtype/shape/data_offsets per tensor and string `__metadata__`, raw little-endian data).
Written here because Debian's Python has no safetensors package."""
import hashlib
import json
import os
import struct

import numpy as np

_DTYPES = {"F32": np.dtype("<f4"), "F64": np.dtype("<f8")}
_NAMES = {np.dtype("<f4"): "F32", np.dtype("<f8"): "F64"}


def write(path, tensors, metadata):
    """tensors: list of (name, numpy array) in file order; metadata: dict of str -> str."""
    header = {"__metadata__": {str(k): str(v) for k, v in metadata.items()}}
    blobs, offset = [], 0
    for name, arr in tensors:
        a = np.ascontiguousarray(arr)
        a = a.astype(a.dtype.newbyteorder("<"), copy=False)
        if a.dtype not in _NAMES:
            raise ValueError(f"{name}: unsupported dtype {a.dtype}")
        b = a.tobytes()
        header[name] = {"dtype": _NAMES[a.dtype], "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    _write_atomically(path, header, blobs)


def _write_atomically(path, header, blobs):
    """Header (with __metadata__) and raw data written to a temporary file, then renamed over `path`: an
    interrupted write leaves the old file, and a symbolic link at `path` is replaced, not written through."""
    h = json.dumps(header, separators=(",", ":")).encode("utf-8")
    h += b" " * ((8 - len(h) % 8) % 8)   # pad so the data start is 8-byte aligned
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)
    os.replace(tmp, path)


def _split(raw):
    (n,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8:8 + n].decode("utf-8")), raw[8 + n:]


def data_sha256(path):
    """SHA-256 (hex) of the tensor data region: equal for two files exactly when their tensor bytes are."""
    with open(path, "rb") as f:
        return hashlib.sha256(_split(f.read())[1]).hexdigest()


def update_metadata(path, entries):
    """Adds or replaces metadata entries (str -> str) of a safetensors file in place, copying every tensor's
    header entry and the data region byte for byte (data offsets are relative to the data start)."""
    with open(path, "rb") as f:
        header, body = _split(f.read())
    meta = dict(header.get("__metadata__", {}))
    meta.update({str(k): str(v) for k, v in entries.items()})
    out = {"__metadata__": meta}
    out.update((k, v) for k, v in header.items() if k != "__metadata__")
    _write_atomically(path, out, [body])


def read(path):
    """Returns (dict name -> numpy array, metadata dict)."""
    with open(path, "rb") as f:
        header, body = _split(f.read())
    meta = header.pop("__metadata__", {})
    out = {}
    for name, t in header.items():
        b, e = t["data_offsets"]
        out[name] = np.frombuffer(body[b:e], dtype=_DTYPES[t["dtype"]]).reshape(t["shape"]).copy()
    return out, meta
