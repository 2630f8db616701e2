"""einsum and einsum_path on the engine's GEMM.

Each operand first loses its repeated labels (diagonals) and the labels no one else needs (sums);
then operands are contracted two at a time in a greedy order (smallest intermediate first). A
pairwise contraction is a transpose to (batch, free, contracted) and (batch, contracted, free), a
reshape to 3-d and one batched matmul; when nothing is contracted it is a broadcast multiply, which
the engine fuses. Ellipsis dimensions get private labels and broadcast like numpy's."""
import functools
import operator

from .. import _core
from . import _dtypes
from ._common import asarray, write_out

_ELL_BASE = 0x2000  # private labels for ellipsis dimensions (never valid subscript letters)


def _parse_sublist(ops_and_lists):
    """einsum(op0, sublist0, op1, sublist1, ..., [sublistout]) -> a subscripts string."""
    def letters(sub):
        out = ""
        for s in sub:
            if s is Ellipsis:
                out += "..."
            else:
                s = operator.index(s)
                if not 0 <= s < 52:
                    raise ValueError("[mnn.numpy.einsum] subscript is not within the valid range [0, 52)")
                out += chr(ord("A") + s) if s < 26 else chr(ord("a") + s - 26)
        return out
    args = list(ops_and_lists)
    operands, terms = [], []
    while len(args) >= 2:
        operands.append(args.pop(0))
        terms.append(letters(args.pop(0)))
    sub = ",".join(terms)
    if args:
        sub += "->" + letters(args[0])
    return sub, operands


def _parse(subscripts, operands):
    sub = subscripts.replace(" ", "")
    if "->" in sub:
        lhs, rhs = sub.split("->", 1)
        if "->" in rhs or "-" in rhs.replace("->", "") or ">" in rhs:
            raise ValueError("[mnn.numpy.einsum] einstein sum subscript string does not contain proper '->' output "
                             "specified")
    else:
        if "-" in sub or ">" in sub:
            raise ValueError("[mnn.numpy.einsum] einstein sum subscript string does not contain proper '->' output "
                             "specified")
        lhs, rhs = sub, None
    terms = lhs.split(",")
    if len(terms) > len(operands):
        raise ValueError("[mnn.numpy.einsum] fewer operands provided to einstein sum function than specified in the "
                         "subscripts string")
    if len(terms) < len(operands):
        raise ValueError("[mnn.numpy.einsum] more operands provided to einstein sum function than specified in the "
                         "subscripts string")
    for t in terms + ([rhs] if rhs is not None else []):
        body = t.replace("...", "")
        if "." in body:
            raise ValueError("[mnn.numpy.einsum] einstein sum subscripts string contains a '.' that is not part of "
                             "an ellipsis ('...')")
        for ch in body:
            if not ch.isalpha() or not ch.isascii():
                raise ValueError(f"[mnn.numpy.einsum] invalid subscript '{ch}' in einstein sum subscripts string, "
                                 "subscripts must be letters")
    # expand ellipses into private labels, right-aligned across operands
    n_ell = 0
    labels = []
    for k, (t, a) in enumerate(zip(terms, operands)):
        named = len(t.replace("...", ""))
        if "..." in t:
            e = a.ndim - named
            if e < 0:
                raise ValueError(f"[mnn.numpy.einsum] einstein sum subscripts string contains too many subscripts "
                                 f"for operand {k}")
            n_ell = max(n_ell, e)
        elif named != a.ndim:
            if named > a.ndim:
                raise ValueError(f"[mnn.numpy.einsum] einstein sum subscripts string contains too many subscripts "
                                 f"for operand {k}")
            raise ValueError("[mnn.numpy.einsum] operand has more dimensions than subscripts given in einstein sum, "
                             "but no '...' ellipsis provided to broadcast the extra dimensions.")
    ell = [chr(_ELL_BASE + i) for i in range(n_ell)]
    for t, a in zip(terms, operands):
        if "..." in t:
            pre, post = t.split("...")
            e = a.ndim - len(pre) - len(post)
            labels.append(list(pre) + ell[n_ell - e:] + list(post))
        else:
            labels.append(list(t))
    if rhs is None:
        counts = {}
        for ls in labels:
            for ch in ls:
                counts[ch] = counts.get(ch, 0) + 1
        out = ell + sorted(ch for ch, c in counts.items() if c == 1 and ord(ch) < _ELL_BASE)
    else:
        if rhs.count("...") > 1:
            raise ValueError("[mnn.numpy.einsum] einstein sum subscripts string contains more than one ellipsis")
        if "..." in rhs:
            pre, post = rhs.split("...")
            out = list(pre) + ell + list(post)
        else:
            if any(any(ord(c) >= _ELL_BASE for c in ls) for ls in labels):
                raise ValueError("[mnn.numpy.einsum] output has more dimensions than subscripts given in einstein "
                                 "sum, but no '...' ellipsis provided to broadcast the extra dimensions.")
            out = list(rhs)
        seen = set()
        everywhere = set(ch for ls in labels for ch in ls)
        for ch in out:
            if ch in seen:
                raise ValueError(f"[mnn.numpy.einsum] einstein sum subscripts string includes output subscript '{ch}'"
                                 " multiple times")
            seen.add(ch)
            if ch not in everywhere:
                raise ValueError(f"[mnn.numpy.einsum] einstein sum subscripts string included output subscript "
                                 f"'{ch}' which never appeared in an input")
    return labels, out


def _sizes(labels, operands):
    size = {}
    for ls, a in zip(labels, operands):
        for ch, n in zip(ls, a.shape):
            if ch not in size or size[ch] == 1:
                size[ch] = n
            elif n != 1 and n != size[ch]:
                shapes = " ".join(f"({','.join(str(s) for s in o.shape)})" for o in operands)
                raise ValueError(f"[mnn.numpy.einsum] operands could not be broadcast together with remapped shapes "
                                 f"[original->remapped]: {shapes}")
    return size


def _prepare(a, ls, size, keep):
    """Diagonals for repeated labels, broadcast of size-1 dims, sums of labels nobody else needs."""
    ls = list(ls)
    while len(set(ls)) != len(ls):
        for i, ch in enumerate(ls):
            j = ls.index(ch, i + 1) if ch in ls[i + 1:] else -1
            if j >= 0:
                a = _core.diagonal(a, 0, i, j)  # the diagonal axis goes last
                ls = [c for k, c in enumerate(ls) if k not in (i, j)] + [ch]
                break
    target = [size[ch] for ch in ls]
    if list(a.shape) != target:
        a = _core.broadcast_to(a, target)
    drop = [i for i, ch in enumerate(ls) if ch not in keep]
    if drop:
        a = _sum(a, drop)
        ls = [ch for i, ch in enumerate(ls) if i not in drop]
    return a, ls


def _sum(a, axes):
    from ._reductions import sum as _rsum
    return _rsum(a, axis=tuple(axes))


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def _contract(a, la, b, lb, keep, size):
    batch = [c for c in la if c in lb and c in keep]
    contr = [c for c in la if c in lb and c not in keep]
    fa = [c for c in la if c not in lb]
    fb = [c for c in lb if c not in la]
    if not contr:
        # no reduction: a broadcast multiply (fusible) instead of a k=1 GEMM
        out = batch + fa + fb
        ta = _core.transpose(a, [la.index(c) for c in batch + fa]) if la != batch + fa else a
        tb = _core.transpose(b, [lb.index(c) for c in batch + fb]) if lb != batch + fb else b
        ta = _core.reshape(ta, [size[c] for c in batch + fa] + [1] * len(fb))
        tb = _core.reshape(tb, [size[c] for c in batch] + [1] * len(fa) + [size[c] for c in fb])
        return ta * tb, out
    if not batch and _small_weights(a, b, fa, fb, size):
        return (_weighted_sum(a, la, b, lb) if not fb else _weighted_sum(b, lb, a, la)), fa + fb
    pa = [la.index(c) for c in batch + fa + contr]
    pb = [lb.index(c) for c in batch + contr + fb]
    nb, nfa, nc, nfb = (_prod(size[c] for c in g) for g in (batch, fa, contr, fb))
    ta = _core.reshape(_core.transpose(a, pa) if pa != list(range(len(pa))) else a, [nb, nfa, nc])
    tb = _core.reshape(_core.transpose(b, pb) if pb != list(range(len(pb))) else b, [nb, nc, nfb])
    r = _core.matmul(ta, tb)
    out = batch + fa + fb
    return _core.reshape(r, [size[c] for c in out]), out


# A fully contracted operand of at most this many elements (a stencil's weights) is applied as a
# sum of weighted views of the other operand: one fused elementwise pass, where the GEMM would
# copy the big operand into a (rows, k) matrix and run a matrix-vector product.
_SMALL_WEIGHTS = 16


def _small_weights(a, b, fa, fb, size):
    # float16 is left to the GEMM path: numpy's einsum sums half products in float32
    if (fa and fb) or not (a.dtype.kind in "iu" or a.dtype.name in ("float32", "float64")):
        return False
    w = b if not fb else a
    n = 1
    for d in w.shape:
        n *= d
    return 0 < n <= _SMALL_WEIGHTS


def _weighted_sum(big, lbig, w, lw):
    """sum over the index tuples t of w (C order) of big[.., t, ..] * w[t]: every label of w is one
    of big's and is contracted; the result keeps big's other labels in its order."""
    import itertools
    pos = [lbig.index(c) for c in lw]
    view = _window_slicer(big, pos)
    acc = None
    for t in itertools.product(*(range(n) for n in w.shape)):
        if view is not None:
            part = view(t)
        else:
            key = [slice(None)] * len(lbig)
            for p, i in zip(pos, t):
                key[p] = i
            part = big[tuple(key)]
        term = part * w[t]
        acc = term if acc is None else acc + term
    return acc


def _window_slicer(big, pos):
    """When big is a sliding_window_view result and exactly its window axes are contracted, each
    window position is a shifted slice of the source (the same elements): a stencil over the
    source, and the window copy itself is never computed. None otherwise."""
    from .lib.stride_tricks import window_source
    info = window_source(big)
    if info is None:
        return None
    src, axes, window = info
    nd = src.ndim
    if sorted(pos) != list(range(nd, nd + len(window))):
        return None
    sizes = big.shape[:nd]

    def view(t):
        off = [0] * nd
        for p, i in zip(pos, t):
            off[axes[p - nd]] += i
        return src[tuple(slice(o, o + n) for o, n in zip(off, sizes))]
    return view


def _greedy_path(label_sets, out, size):
    """Pairs (i, j) into the current operand list, numpy's path format; each contraction's result
    goes to the end. Greedy: the pair with the smallest result, sharing labels preferred."""
    sets = [set(s) for s in label_sets]
    path = []
    while len(sets) > 1:
        best = None
        for i in range(len(sets)):
            for j in range(i + 1, len(sets)):
                others = set(out).union(*[s for k, s in enumerate(sets) if k not in (i, j)])
                res = (sets[i] | sets[j]) & others
                cost = (0 if sets[i] & sets[j] else 1, _prod(size[c] for c in res))
                if best is None or cost < best[0]:
                    best = (cost, i, j, res)
        _, i, j, res = best
        path.append((i, j))
        sets = [s for k, s in enumerate(sets) if k not in (i, j)] + [res]
    return path


class _Meta:
    """Only what parsing reads of an operand, so parses can be cached by shapes."""
    __slots__ = ("shape", "ndim")

    def __init__(self, shape):
        self.shape = shape
        self.ndim = len(shape)


@functools.lru_cache(maxsize=256)
def _analyse(subscripts, shapes):
    metas = [_Meta(s) for s in shapes]
    labels, out = _parse(subscripts, metas)
    return tuple(tuple(ls) for ls in labels), tuple(out), _sizes(labels, metas)


@functools.lru_cache(maxsize=256)
def _cached_path(label_sets, out, size_items):
    return _greedy_path([list(ls) for ls in label_sets], list(out), dict(size_items))


def _setup(subscripts, operands):
    """Operands, labels per operand, output labels and label sizes; a loop that calls einsum
    with the same subscripts and shapes parses once."""
    if not isinstance(subscripts, str):
        subscripts, operands = _parse_sublist((subscripts,) + tuple(operands))
    ops = [asarray(o) for o in operands]
    labels, out, size = _analyse(subscripts, tuple(tuple(o.shape) for o in ops))
    return ops, [list(ls) for ls in labels], list(out), dict(size)


def einsum(*operands, out=None, optimize=False, dtype=None, order="K", casting="safe"):
    if not operands:
        raise ValueError("[mnn.numpy.einsum] No input operands")
    ops, labels, outl, size = _setup(operands[0], operands[1:])
    dt = _dtypes.result_type(*[o.dtype for o in ops]) if dtype is None else _dtypes.dtype(dtype)
    ops = [o.astype(dt) if o.dtype != dt else o for o in ops]
    counts = {}
    for ls in labels:
        for ch in set(ls):
            counts[ch] = counts.get(ch, 0) + 1
    cur = []
    for a, ls in zip(ops, labels):
        keep = set(outl) | {ch for ch in ls if counts[ch] > 1}
        cur.append(_prepare(a, ls, size, keep))
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        path = [tuple(p) for p in optimize[1:]]
    else:
        path = _cached_path(tuple(tuple(ls) for _, ls in cur), tuple(outl), tuple(sorted(size.items())))
    for step in path:
        if len(step) == 1:
            continue
        i, j = sorted(step)
        (a, la), (b, lb) = cur[i], cur[j]
        rest = [x for k, x in enumerate(cur) if k not in (i, j)]
        keep = set(outl).union(*[set(ls) for _, ls in rest]) if rest else set(outl)
        r, lr = _contract(a, la, b, lb, keep, size)
        cur = rest + [(r, lr)]
    a, ls = cur[0]
    drop = [k for k, ch in enumerate(ls) if ch not in outl]
    if drop:
        a = _sum(a, drop)
        ls = [ch for k, ch in enumerate(ls) if k not in drop]
    perm = [ls.index(ch) for ch in outl]
    if perm != list(range(len(perm))):
        a = _core.transpose(a, perm)
    if a.dtype != dt:
        a = a.astype(dt)
    if a is ops[0] or (len(ops) == 1 and a._same_storage(ops[0])):
        a = _core.copy(a)  # numpy's einsum returns a view only for pure transposes; a copy is safe
    return write_out(a, out, "einsum", casting="unsafe")


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    ops, labels, outl, size = _setup(operands[0], operands[1:])
    path = _greedy_path(labels, outl, size)
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        path = [tuple(p) for p in optimize[1:]]
    naive = _prod(size.values()) * max(len(ops), 1)
    lines = ["  Complete contraction:  " + (operands[0] if isinstance(operands[0], str) else "(sublist form)"),
             "         Naive scaling:  " + str(len(size)),
             "     Naive FLOP count:  " + f"{naive:.3e}",
             "  Contraction path:  " + str(path)]
    return ["einsum_path"] + path, "\n".join(lines)


__all__ = ["einsum", "einsum_path"]
