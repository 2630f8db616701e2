"""numpy.nditer for the common patterns: element-by-element loops over one or several broadcast
operands, readwrite/writeonly operands written through 0-d views, allocated outputs, multi_index /
c_index / f_index tracking, and external_loop chunks. Each element is a Python-level step, so this
is for glue code, as in numpy; vectorised expressions are the fast path."""
import sys

from . import _dtypes
from ._common import asarray, ndarray

_WRITE = ("readwrite", "writeonly")
_KNOWN_FLAGS = {"multi_index", "c_index", "f_index", "external_loop", "refs_ok", "zerosize_ok", "buffered",
                "grow_inner", "delay_bufalloc", "common_dtype", "copy_if_overlap", "ranged", "reduce_ok"}


def _mnp():
    return sys.modules["mnn.numpy"]


class nditer:
    """Iterate one or more broadcast arrays; see numpy.nditer."""

    def __init__(self, op, flags=None, op_flags=None, op_dtypes=None, order="K", casting="safe", op_axes=None,
                 itershape=None, buffersize=0):
        mnp = _mnp()
        if op_axes is not None or itershape is not None:
            raise NotImplementedError("[mnn.numpy.nditer] op_axes and itershape are not supported yet")
        single = not isinstance(op, (list, tuple))
        ops = [op] if single else list(op)
        flags = set(flags or ())
        unknown = flags - _KNOWN_FLAGS
        if unknown:
            raise ValueError(f"[mnn.numpy.nditer] unknown iterator flag {sorted(unknown)[0]!r}")
        nop = len(ops)
        if op_flags is None:
            op_flags = [["readonly"]] * nop
        elif op_flags and isinstance(op_flags[0], str):
            op_flags = [list(op_flags)] * nop
        if len(op_flags) != nop:
            raise ValueError("[mnn.numpy.nditer] op_flags must be a tuple/list matching the number of ops")
        if op_dtypes is not None and not isinstance(op_dtypes, (list, tuple)):
            op_dtypes = [op_dtypes] * nop
        arrays = [None if o is None else (o if isinstance(o, ndarray) else asarray(o)) for o in ops]
        shape = tuple(mnp.broadcast_shapes(*[a.shape for a in arrays if a is not None]))
        for i, a in enumerate(arrays):
            fl = op_flags[i]
            if a is None:
                if "allocate" not in fl:
                    raise ValueError("[mnn.numpy.nditer] Iterator operand is None, but the allocate flag is not set")
                dt = op_dtypes[i] if op_dtypes is not None and op_dtypes[i] is not None else \
                    mnp.result_type(*[x for x in arrays if x is not None])
                arrays[i] = mnp.empty(shape, dtype=dt)
                continue
            if op_dtypes is not None and op_dtypes[i] is not None and _dtypes.dtype(op_dtypes[i]) != a.dtype:
                if any(f in _WRITE for f in fl):
                    raise NotImplementedError("[mnn.numpy.nditer] op_dtypes casts of written operands are not "
                                              "supported")
                if not _dtypes.can_cast(a.dtype, op_dtypes[i], casting):
                    raise TypeError(f"[mnn.numpy.nditer] Iterator operand {i} dtype could not be cast from "
                                    f"{a.dtype!r} to {_dtypes.dtype(op_dtypes[i])!r} according to the rule {casting!r}")
                a = a.astype(op_dtypes[i])
                arrays[i] = a
            if any(f in _WRITE for f in fl):
                if tuple(a.shape) != shape:
                    raise ValueError("[mnn.numpy.nditer] output operand requires a reduction or broadcasting, "
                                     "which is not enabled")
                if not a.flags.writeable:
                    raise ValueError("[mnn.numpy.nditer] output array is read-only")
        if shape and 0 in shape and "zerosize_ok" not in flags:
            raise ValueError("[mnn.numpy.nditer] Iteration of zero-sized operands is not enabled")
        self._single = single
        self._flags = flags
        self.operands = tuple(arrays)
        self._views = [mnp.broadcast_to(a, shape) if tuple(a.shape) != shape else a for a in arrays]
        self.shape = shape
        self.ndim = len(shape)
        self.nop = nop
        self.itersize = 1
        for n in shape:
            self.itersize *= n
        self._axes, self._rev = self._order_axes(order, arrays)
        self.reset()

    def _order_axes(self, order, arrays):
        """Axes from outermost to innermost, and which axes run backwards ('K': the first operand's
        memory order, negative strides walked forwards in memory, as numpy does)."""
        nd = len(self.shape)
        rev = [False] * nd
        if order == "F":
            return list(range(nd - 1, -1, -1)), rev
        if order == "K" and nd > 0 and tuple(arrays[0].shape) == self.shape:
            strides = arrays[0].strides
            rev = [s < 0 and n > 1 for s, n in zip(strides, self.shape)]
            if not arrays[0].flags.c_contiguous:
                return sorted(range(nd), key=lambda i: -abs(strides[i])), rev
        return list(range(nd)), rev

    def reset(self):
        self.iterindex = 0
        self.finished = self.itersize == 0
        self._ctr = [0] * self.ndim

    @property
    def _pos(self):
        return [n - 1 - c if r else c for c, n, r in zip(self._ctr, self.shape, self._rev)]

    # -- positions
    @property
    def multi_index(self):
        if "multi_index" not in self._flags:
            raise ValueError("[mnn.numpy.nditer] Iterator is not tracking a multi-index")
        return tuple(self._pos)

    @property
    def index(self):
        if "c_index" in self._flags:
            k = 0
            for p, n in zip(self._pos, self.shape):
                k = k * n + p
            return k
        if "f_index" in self._flags:
            k = 0
            for p, n in zip(reversed(self._pos), reversed(self.shape)):
                k = k * n + p
            return k
        raise ValueError("[mnn.numpy.nditer] Iterator does not have an index")

    def _advance(self):
        for ax in reversed(self._axes):
            self._ctr[ax] += 1
            if self._ctr[ax] < self.shape[ax]:
                break
            self._ctr[ax] = 0
        self.iterindex += 1
        if self.iterindex >= self.itersize:
            self.finished = True

    # -- values
    def _values(self):
        idx = tuple(self._pos)
        vals = tuple(v[idx] for v in self._views)  # 0-d views: writes land in the operands
        return vals[0] if self._single else vals

    @property
    def value(self):
        return self._values()

    def __getitem__(self, i):
        return self._views[i][tuple(self._pos)]

    def iternext(self):
        if self.finished:
            return False
        self._advance()
        return not self.finished

    def __iter__(self):
        if "external_loop" in self._flags:
            yield from self._chunks()
            return
        while not self.finished:
            yield self._values()
            self._advance()

    def _chunks(self):
        """1-d chunks along the innermost iteration axis (the whole array when it is one contiguous run).
        numpy coalesces evenly strided axes into longer chunks; chunk sizes are an implementation
        detail there too, the element order is the same. Chunks are views, so writes land."""
        mnp = _mnp()
        if self.ndim == 0:
            vals = tuple(mnp.reshape(v, (1,)) for v in self._views)
            self.finished = True
            yield vals[0] if self._single else vals
            return
        if all(v.flags.c_contiguous and tuple(v.shape) == self.shape for v in self._views) and \
                self._axes == list(range(self.ndim)) and not any(self._rev):
            vals = tuple(mnp.reshape(v, (-1,)) for v in self._views)
            self.finished = True
            yield vals[0] if self._single else vals
            return
        outer = self._axes[:-1]
        for pos in mnp.ndindex(*[self.shape[ax] for ax in outer]):
            idx = [slice(None)] * self.ndim
            inner = self._axes[-1]
            if self._rev[inner]:
                idx[inner] = slice(None, None, -1)
            for ax, p in zip(outer, pos):
                idx[ax] = self.shape[ax] - 1 - p if self._rev[ax] else p
            vals = tuple(v[tuple(idx)] for v in self._views)
            yield vals[0] if self._single else vals
        self.finished = True

    def __len__(self):
        return self.itersize

    # -- context manager (numpy writes buffered results back on exit; views need nothing)
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        pass

    def copy(self):
        it = nditer.__new__(nditer)
        it.__dict__.update(self.__dict__)
        it._ctr = list(self._ctr)
        return it
