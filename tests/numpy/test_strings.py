"""numpy's fixed-width unicode string arrays ('<U{n}') against numpy: creation, dtype, astype,
indexing (get/set), views, printing, comparisons, the moving/ordering functions, np.save/np.load,
and numpy's TypeError for what strings have no loop for. Data: 0-d, 1-d, 2-d, empty, non-ASCII
(é, 漢, emoji), trailing spaces, empty strings, non-contiguous views, broadcasting."""
import io

import numpy
import pytest

import mnn.numpy as mnp

WORDS = ["cat", "dog", "", "é", "漢字", "😀x", "cat ", "a", "Zebra", "dog"]
DATA = {
    "0d": numpy.array("漢x"),
    "1d": numpy.array(WORDS),
    "2d": numpy.array(WORDS[:8]).reshape(2, 4),
    "3d": numpy.array(WORDS[:8]).reshape(2, 2, 2),
    "empty": numpy.array([], dtype="<U3"),
    "empty2d": numpy.zeros((0, 3), dtype="<U2"),
    "blank": numpy.array(["", ""]),
}


def mine(ref):
    if ref.size == 0:
        return mnp.asarray(ref)
    return mnp.array(ref.tolist(), dtype=ref.dtype.str)


def assert_same(m, r):
    """Same type family, dtype, shape and elements (strings, bools, ints)."""
    if isinstance(r, tuple):
        assert isinstance(m, tuple) and len(m) == len(r)
        for x, y in zip(m, r):
            assert_same(x, y)
        return
    if isinstance(r, numpy.str_):
        assert isinstance(m, mnp.str_) and str(m) == str(r), (m, r)
        return
    if isinstance(r, (str, int, bool, float)) and not isinstance(r, numpy.generic):
        assert m == r and type(m) is type(r), (m, r)
        return
    r = numpy.asarray(r)
    assert isinstance(m, mnp.ndarray), type(m)
    assert tuple(m.shape) == r.shape, (m.shape, r.shape)
    assert m.dtype == r.dtype, (m.dtype, r.dtype)
    if r.dtype.kind == "U":
        assert m.dtype.str == r.dtype.str
        assert m.tolist() == r.tolist()
        assert repr(m) == repr(r)
    else:
        assert numpy.array_equal(numpy.asarray(m), r)


def both(fn, *refs, **kw):
    """fn on numpy arrays and on their mnn twins: same result, or the same exception type."""
    try:
        r = fn(numpy, *refs, **kw)
    except Exception as e:  # noqa: BLE001
        with pytest.raises(type(e) if not isinstance(e, TypeError) else TypeError):
            fn(mnp, *[mine(x) if isinstance(x, numpy.ndarray) else x for x in refs], **kw)
        return None
    m = fn(mnp, *[mine(x) if isinstance(x, numpy.ndarray) else x for x in refs], **kw)
    assert_same(m, r)
    return m


# ------------------------------------------------------------------ dtype, scalars, creation


@pytest.mark.parametrize("spelling", ["U5", "<U5", "=U5", "|U5", "U", "<U0", "str", "U1", "U100"])
def test_dtype(spelling):
    d, r = mnp.dtype(spelling), numpy.dtype(spelling)
    assert d == r and r == d and hash(d) == hash(r)
    for attr in ("str", "name", "kind", "char", "itemsize", "alignment", "byteorder", "descr"):
        assert getattr(d, attr) == getattr(r, attr), attr
    assert repr(d) == repr(r) and str(d) == str(r)
    assert mnp.dtype(r) is d and mnp.dtype(d.str) is d
    assert mnp.issubdtype(d, mnp.str_) and mnp.issubdtype(d, mnp.character) and not mnp.issubdtype(d, mnp.number)


def test_dtype_spellings_of_types():
    assert mnp.dtype(str) == numpy.dtype(str) and mnp.dtype(numpy.str_) == numpy.dtype(numpy.str_)
    assert mnp.dtype(mnp.str_) == numpy.dtype("<U0")
    with pytest.raises(TypeError):
        mnp.dtype(">U3")


def test_promotion_and_casting():
    for t in ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16", "U3", "U30"]:
        assert mnp.promote_types(t, "U4") == numpy.promote_types(t, "U4"), t
        assert mnp.result_type(mnp.dtype(t), mnp.dtype("U2")) == numpy.result_type(numpy.dtype(t), "U2"), t
        for to in ["U3", "U21", "U40", "i8", "f8", "?"]:
            for casting in ("safe", "same_kind", "unsafe"):
                assert mnp.can_cast(t, to, casting) == numpy.can_cast(t, to, casting), (t, to, casting)


def test_str_scalar():
    s = mnp.str_("héllo")
    assert isinstance(s, str) and isinstance(s, mnp.generic) and isinstance(s, mnp.character)
    assert repr(s) == repr(numpy.str_("héllo")) and str(s) == "héllo"
    assert s.dtype == numpy.str_("héllo").dtype and s + "!" == "héllo!"
    assert mnp.isscalar(s)


@pytest.mark.parametrize("obj", [["a", "bb"], [["x", "yy "], ["", "漢字😀"]], "abc", "", [], [[], []], ["é"],
                                 ("a", ["b", "c"]), [1, "a"], [1.5, "a"], [True, "ab"], [["a"], ["bcd"]]])
def test_array_from_python(obj):
    try:
        r = numpy.array(obj)
    except ValueError:
        with pytest.raises(ValueError):
            mnp.array(obj)
        return
    if r.dtype.kind != "U":
        r = numpy.array(obj, dtype=str)
    m = mnp.array(obj) if r.dtype.kind == "U" and numpy.array(obj).dtype.kind == "U" else mnp.array(obj, dtype=str)
    assert_same(m, r)
    assert_same(mnp.asarray(obj, dtype=r.dtype.str), r)


@pytest.mark.parametrize("dtype", ["U2", "<U1", "U8", str, "U"])
def test_array_dtype_truncates_and_pads(dtype):
    obj = ["abc", "", "漢字😀x", "xy "]
    assert_same(mnp.array(obj, dtype=dtype), numpy.array(obj, dtype=dtype))


def test_array_of_numbers_with_str_dtype():
    for obj in ([1, 2, 300], [1.5, 0.1, 1e20, -0.0], [True, False], [[1, 2], [3, 4]]):
        assert_same(mnp.array(obj, dtype=str), numpy.array(obj, dtype=str))
        assert_same(mnp.array(obj, dtype="U2"), numpy.array(obj, dtype="U2"))


def test_array_from_numpy_and_back():
    for ref in DATA.values():
        m = mnp.asarray(ref)
        assert_same(m, ref)
        back = numpy.asarray(m)
        assert back.dtype == ref.dtype and back.shape == ref.shape and back.tolist() == ref.tolist()
    assert_same(mnp.asarray(DATA["2d"][:, ::2]), DATA["2d"][:, ::2])


def test_strings_parse_to_numbers():
    assert_same(mnp.array(["1.5", " 2", "-3e2"], dtype=float), numpy.array(["1.5", " 2", "-3e2"], dtype=float))
    assert_same(mnp.array(["1", "-20"], dtype="int32"), numpy.array(["1", "-20"], dtype="int32"))
    with pytest.raises(ValueError):
        mnp.array(["1.5", "x"], dtype=float)


@pytest.mark.parametrize("fn", ["zeros", "empty", "ones"])
@pytest.mark.parametrize("shape", [3, (2, 3), (0,), ()])
def test_filled(fn, shape):
    for dtype in ("U3", str, "<U1"):
        r = getattr(numpy, fn)(shape, dtype=dtype)
        m = getattr(mnp, fn)(shape, dtype=dtype)
        if fn == "empty":
            assert m.shape == r.shape and m.dtype == r.dtype and all(v == "" for v in m.ravel().tolist())
        else:
            assert_same(m, r)


def test_full_and_likes():
    assert_same(mnp.full((2, 2), "ab"), numpy.full((2, 2), "ab"))
    assert_same(mnp.full(3, "abcdef", dtype="U2"), numpy.full(3, "abcdef", dtype="U2"))
    assert_same(mnp.full(2, "7", dtype=int), numpy.full(2, "7", dtype=int))
    assert_same(mnp.full((), "漢"), numpy.full((), "漢"))
    a = DATA["2d"]
    for fn in ("zeros_like", "ones_like"):
        assert_same(getattr(mnp, fn)(mine(a)), getattr(numpy, fn)(a))
    assert_same(mnp.full_like(mine(a), "q"), numpy.full_like(a, "q"))
    assert_same(mnp.zeros_like(mine(a), dtype=int), numpy.zeros_like(a, dtype=int))


# ------------------------------------------------------------------ attributes, conversion


@pytest.mark.parametrize("key", list(DATA))
def test_attributes_and_conversion(key):
    r = DATA[key]
    m = mine(r)
    assert isinstance(m, mnp.ndarray)
    assert (m.shape, m.ndim, m.size, m.itemsize, m.nbytes) == (r.shape, r.ndim, r.size, r.itemsize, r.nbytes)
    assert m.dtype == r.dtype
    assert m.tolist() == r.tolist()
    assert repr(m) == repr(r) and str(m) == str(r)
    assert_same(m.copy(), r.copy())
    if r.ndim:
        assert len(m) == len(r)
        assert [str(x) if isinstance(x, str) else x.tolist() for x in m] == \
            [str(x) if isinstance(x, str) else x.tolist() for x in r]
    else:
        with pytest.raises(TypeError):
            len(m)
        assert_same(m[()], r[()])
        assert m.item() == r.item()
    if r.size == 1:
        assert bool(m) == bool(r)


def test_isinstance_and_issubclass():
    m = mnp.array(["a"])
    assert isinstance(m, mnp.ndarray) and issubclass(type(m), mnp.ndarray)
    assert isinstance(mnp.arange(3), mnp.ndarray) and not isinstance([1], mnp.ndarray)
    assert not isinstance(3.0, mnp.ndarray) and not isinstance("a", mnp.ndarray)


def test_printing_long_and_summarised():
    r = numpy.array([f"w{i}é" for i in range(40)])
    assert repr(mine(r)) == repr(r) and str(mine(r)) == str(r)
    r = numpy.array([f"{i}" for i in range(2000)]).reshape(40, 50)
    assert repr(mine(r)) == repr(r) and str(mine(r)) == str(r)
    r = numpy.array(["it's", 'say "hi"', "tab\t", "nl\n"])
    assert repr(mine(r)) == repr(r)


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16", "bool", "float64", "float32", "float16", "complex128"])
def test_astype_numbers_to_str(dtype):
    vals = {"b": [True, False, True], "c": [1 + 2j, -0.5j, 3]}.get(numpy.dtype(dtype).kind,
                                                                     [0, 1, -2, 100, 7, 0.1, 1e-5, 1e10])
    if numpy.dtype(dtype).kind == "u":
        vals = [0, 1, 2, 100, 65535]
    if numpy.dtype(dtype).kind in "iu":
        vals = [int(v) for v in vals if v == int(v)]
    r = numpy.array(vals).astype(dtype)
    m = mnp.asarray(r)
    for to in (str, "U", "U3", "<U40"):
        assert_same(m.astype(to), r.astype(to))


@pytest.mark.parametrize("to", ["int64", "int8", "float64", "float32", "bool", "U2", "U10"])
def test_astype_str_to(to):
    r = numpy.array([["1", "-2 "], ["30", "0"]])
    assert_same(mine(r).astype(to), r.astype(to))
    if to not in ("bool", "U2", "U10"):
        for bad in (["x"], ["1.5x"]):
            with pytest.raises(ValueError):
                mnp.array(bad).astype(to)
    with pytest.raises(TypeError):
        mine(r).astype(to, casting="safe") if to[0] != "U" else (_ for _ in ()).throw(TypeError())


# ------------------------------------------------------------------ indexing


KEYS = [0, -1, (1,), slice(None, None, -2), slice(1, 3), Ellipsis, (Ellipsis, 0), None, (None, 0),
        (0, slice(None)), (slice(None), 1), (slice(None), None, -1), [0, 1, 1], ([1, 0], [2, 3]),
        (slice(None), [3, 0]), ()]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_getitem(key):
    r = DATA["2d"]
    both(lambda np, a: a[key], r)
    both(lambda np, a: a[key], DATA["1d"])


def test_getitem_masks_and_arrays():
    r = DATA["2d"]
    m = mine(r)
    assert_same(m[m == "dog"], r[r == "dog"])
    assert_same(m[mnp.array([True, False])], r[numpy.array([True, False])])
    assert_same(m[mnp.array([[1, 0], [0, 1]])], r[numpy.array([[1, 0], [0, 1]])])
    assert_same(m[:, mnp.array([True, False, True, False])], r[:, numpy.array([True, False, True, False])])
    with pytest.raises(IndexError):
        m[5]
    with pytest.raises(IndexError):
        mine(DATA["0d"])[0]


@pytest.mark.parametrize("key, value", [(0, "new"), (slice(None), "longer than width"), ((1, 2), "é"),
                                        (slice(0, 2), ["p", "q", "r", "s"]), ((Ellipsis, 0), ""),
                                        ([0, 1], "z"), (0, 5), (1, 2.5), ((0, [1, 3]), ["ab", "cd"])], ids=repr)
def test_setitem(key, value):
    r = DATA["2d"].copy()
    m = mine(r)
    r[key] = value
    m[key] = value
    assert_same(m, r)


def test_setitem_mask_views_and_arrays():
    r = DATA["2d"].copy()
    m = mine(r)
    r[r == "dog"] = "wolf"
    m[m == "dog"] = "wolf"
    assert_same(m, r)
    vr, vm = r[:, ::2], m[:, ::2]  # a non-contiguous view writes through
    vr[0] = "v"
    vm[0] = "v"
    assert_same(m, r)
    r[1] = numpy.array(["a", "bbbbbbbbbb", "c", "d"])
    m[1] = mnp.array(["a", "bbbbbbbbbb", "c", "d"])
    assert_same(m, r)
    r0, m0 = DATA["0d"].copy(), mine(DATA["0d"])
    r0[()] = "q"
    m0[()] = "q"
    assert_same(m0, r0)
    m.fill("f")
    r.fill("f")
    assert_same(m, r)


# ------------------------------------------------------------------ shapes and views


@pytest.mark.parametrize("fn", [
    lambda np, a: a.reshape(4, 2), lambda np, a: a.reshape(-1), lambda np, a: a.ravel(), lambda np, a: a.flatten(),
    lambda np, a: a.T, lambda np, a: a.transpose(1, 0), lambda np, a: a[:, None].squeeze(),
    lambda np, a: a[:1].squeeze(0), lambda np, a: np.expand_dims(a, 1), lambda np, a: np.reshape(a, (8,)),
    lambda np, a: np.transpose(a), lambda np, a: np.ravel(a[:, ::-1]), lambda np, a: np.squeeze(a[None]),
    lambda np, a: np.swapaxes(a, 0, 1), lambda np, a: np.moveaxis(a[None], 0, 2), lambda np, a: np.flip(a, 1),
    lambda np, a: np.roll(a, 1), lambda np, a: np.tile(a, (1, 2)), lambda np, a: np.repeat(a, 2, axis=0),
    lambda np, a: np.take(a, [0, 3], axis=1), lambda np, a: np.broadcast_to(a[:1], (3, 4)),
    lambda np, a: np.delete(a, 1, axis=1), lambda np, a: np.split(a, 2, axis=1), lambda np, a: np.atleast_3d(a),
    lambda np, a: np.rot90(a), lambda np, a: np.fliplr(a), lambda np, a: np.array_split(a, 3, axis=1),
    lambda np, a: np.take_along_axis(a, np.array([[0], [3]]), axis=1), lambda np, a: a.repeat(2),
    lambda np, a: a.take([1, 2]), lambda np, a: a.swapaxes(0, 1), lambda np, a: np.copy(a),
    lambda np, a: np.compress([True, False], a, axis=0), lambda np, a: np.append(a, "x"),
    lambda np, a: np.insert(a, 1, "ins", axis=1), lambda np, a: np.ascontiguousarray(a.T),
])
def test_shape_functions(fn):
    out = fn(numpy, DATA["2d"])
    m = fn(mnp, mine(DATA["2d"]))
    if isinstance(out, list):
        assert isinstance(m, list) and len(m) == len(out)
        for x, y in zip(m, out):
            assert_same(x, y)
    else:
        assert_same(m, out)


def test_view_writes_through():
    r = DATA["2d"].copy()
    m = mine(r)
    m.T[0, 1] = "T"
    m.reshape(8)[0] = "R"
    m[::-1][0, 0] = "rev"
    r.T[0, 1] = "T"
    r.reshape(8)[0] = "R"
    r[::-1][0, 0] = "rev"
    assert_same(m, r)


@pytest.mark.parametrize("fn", ["concatenate", "stack", "hstack", "vstack", "dstack", "column_stack"])
def test_joining(fn):
    a = numpy.array(["a", "bb", "漢字😀"])
    b = numpy.array(["long string", "", "x "])
    both(lambda np, x, y: getattr(np, fn)([x, y]), a, b)
    both(lambda np, x, y: getattr(np, fn)((x, y)), a.reshape(3, 1), b.reshape(3, 1))
    if fn in ("concatenate", "stack"):
        both(lambda np, x, y: getattr(np, fn)([x, y], axis=1), a.reshape(3, 1), b.reshape(3, 1))
        both(lambda np, x, y: getattr(np, fn)([x, y], axis=-1), a, b)
    both(lambda np, x: getattr(np, fn)([x, np.array([1, 2, 3])]), a)  # numbers join as their text


def test_concatenate_axis_none_and_errors():
    both(lambda np, x, y: np.concatenate([x, y], axis=None), DATA["2d"], DATA["1d"])
    both(lambda np, x, y: np.concatenate([x, y]), DATA["2d"], DATA["1d"])


# ------------------------------------------------------------------ comparisons, where, ufuncs


@pytest.mark.parametrize("op", ["__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"])
def test_comparisons(op):
    a, b = DATA["2d"], DATA["2d"][::-1, ::-1]
    both(lambda np, x, y: getattr(x, op)(y), a, b)
    both(lambda np, x: getattr(x, op)("dog"), a)
    both(lambda np, x: getattr(x, op)(""), a)
    both(lambda np, x, y: getattr(x, op)(y), a, numpy.array(["cat", "漢字", "e", "cat "]))  # broadcast
    both(lambda np, x, y: getattr(x, op)(y), a[:, :1], numpy.array(["cat", "é"]))
    both(lambda np, x, y: getattr(x, op)(y), DATA["empty"], DATA["empty"])
    both(lambda np, x: getattr(x, op)("a"), DATA["0d"])
    # trailing NULs do not count, trailing spaces do
    both(lambda np, x, y: getattr(x, op)(y), numpy.array(["ab", "ab "]), numpy.array(["ab"], dtype="U5"))


@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"])
def test_comparison_ufuncs(name):
    a = DATA["2d"]
    both(lambda np, x: getattr(np, name)(x, "dog"), a)
    both(lambda np, x: getattr(np.strings, name)(x, "dog"), a)
    both(lambda np, x: getattr(np.char, name)(x, x.T[:1].T), a)


def test_comparison_with_numbers():
    a = DATA["1d"]
    both(lambda np, x: x == 1, a)
    both(lambda np, x: x != 1, a)
    both(lambda np, x: x < 1, a)


def test_where():
    c = numpy.array([[True, False, True, False], [False, False, True, True]])
    a = DATA["2d"]
    both(lambda np, x: np.where(np.asarray(c), x, "other"), a)
    both(lambda np, x: np.where(np.asarray(c), "yes", x), a)
    both(lambda np, x, y: np.where(np.asarray(c[0]), x[0], y), a, numpy.array(["p", "q", "r", "s"]))
    both(lambda np, x: np.where(x == "dog", x, "notdog"), a)
    both(lambda np: np.where(True, "a", "bcd"))
    both(lambda np: np.where(np.array([True, False]), "a", 5))


def test_add_ufunc_concatenates():
    a = DATA["2d"]
    both(lambda np, x: np.add(x, "!"), a)
    both(lambda np, x: x + "!", a)
    both(lambda np, x: "¡" + x, a)
    both(lambda np, x: x + x.T[:1].T, a)


@pytest.mark.parametrize("fn", [
    lambda np, a: np.add(a, 1), lambda np, a: a + 1, lambda np, a: a - "x", lambda np, a: a * 2,
    lambda np, a: -a, lambda np, a: np.exp(a), lambda np, a: np.sum(a), lambda np, a: a.sum(),
    lambda np, a: np.mean(a), lambda np, a: a.mean(), lambda np, a: np.max(a), lambda np, a: a.min(),
    lambda np, a: np.cumsum(a), lambda np, a: np.prod(a), lambda np, a: np.maximum(a, a),
    lambda np, a: np.isnan(a), lambda np, a: np.subtract(a, a), lambda np, a: a / 2, lambda np, a: np.std(a),
    lambda np, a: np.abs(a), lambda np, a: np.sqrt(a), lambda np, a: np.negative(a),
])
def test_unsupported_raise_type_error(fn):
    with pytest.raises(TypeError):
        fn(numpy, DATA["1d"])
    with pytest.raises(TypeError, match=r"\[mnn\.numpy\."):
        fn(mnp, mine(DATA["1d"]))


# ------------------------------------------------------------------ ordering functions


@pytest.mark.parametrize("key", ["1d", "2d", "3d", "empty", "blank"])
def test_sort_argsort(key):
    r = DATA[key]
    both(lambda np, a: np.sort(a), r)
    both(lambda np, a: np.sort(a, axis=None), r)
    both(lambda np, a: np.argsort(a, kind="stable"), r)
    if r.ndim > 1:
        both(lambda np, a: np.sort(a, axis=0), r)
        both(lambda np, a: np.argsort(a, axis=0, kind="stable"), r)
        both(lambda np, a: np.sort(a[:, ::-1], axis=1), r)
    m = mine(r)
    m.sort()
    s = r.copy()
    s.sort()
    assert_same(m, s)
    if r.size:
        both(lambda np, a: np.argmax(a), r)
        both(lambda np, a: np.argmin(a), r)
        both(lambda np, a: a.argmax(axis=0), r)


@pytest.mark.parametrize("key", ["1d", "2d", "empty", "blank", "0d"])
def test_unique(key):
    r = DATA[key]
    both(lambda np, a: np.unique(a), r)
    both(lambda np, a: np.unique(a, return_index=True, return_inverse=True, return_counts=True), r)
    both(lambda np, a: np.unique(a, return_inverse=True), r)
    both(lambda np, a: tuple(np.unique_all(a)), r)
    both(lambda np, a: tuple(np.unique_counts(a)), r)
    both(lambda np, a: tuple(np.unique_inverse(a)), r)
    both(lambda np, a: np.sort(np.unique_values(a)), r)  # numpy 2.3+: in hash order
    if r.ndim == 2:
        both(lambda np, a: np.unique(a, axis=0), numpy.concatenate([r, r]))


def test_isin_searchsorted_and_sets():
    a, b = DATA["2d"], numpy.array(["dog", "é", "nothere", ""])
    both(lambda np, x, y: np.isin(x, y), a, b)
    both(lambda np, x, y: np.isin(x, y, invert=True), a, b)
    both(lambda np, x: np.isin(x, ["cat", "a"]), a)
    both(lambda np, x: np.isin(x, [1, 2]), a)
    s = numpy.sort(DATA["1d"])
    both(lambda np, x, y: np.searchsorted(x, y), s, b)
    both(lambda np, x, y: np.searchsorted(x, y, side="right"), s, b)
    both(lambda np, x: np.searchsorted(x, "dog"), s)
    both(lambda np, x: x.searchsorted(["a", "zz"]), s)
    for fn in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        both(lambda np, x, y: getattr(np, fn)(x, y), a, b)


def test_nonzero_and_truth():
    a = numpy.array(["", "a", "", "bc"])
    both(lambda np, x: np.nonzero(x), a)
    both(lambda np, x: np.count_nonzero(x), a)
    both(lambda np, x: x.any(), a)
    both(lambda np, x: x.all(), a)
    assert mnp.array_equal(mine(a), mine(a)) and not mnp.array_equal(mine(a), mine(a[::-1]))
    assert "bc" in mine(a) and "zz" not in mine(a)


# ------------------------------------------------------------------ save / load


@pytest.mark.parametrize("key", list(DATA))
def test_save_load_interchange(key):
    r = DATA[key]
    buf = io.BytesIO()
    mnp.save(buf, mine(r))
    buf.seek(0)
    back = numpy.load(buf)
    assert back.dtype == r.dtype and back.tolist() == r.tolist()
    buf = io.BytesIO()
    numpy.save(buf, r)
    buf.seek(0)
    assert_same(mnp.load(buf), r)


def test_save_load_views_fortran_and_npz():
    r = DATA["2d"]
    buf = io.BytesIO()
    mnp.save(buf, mine(r)[:, ::-1].T)
    buf.seek(0)
    assert numpy.load(buf).tolist() == r[:, ::-1].T.tolist()
    buf = io.BytesIO()
    numpy.save(buf, numpy.asfortranarray(r))
    buf.seek(0)
    assert_same(mnp.load(buf), r)
    buf = io.BytesIO()
    mnp.savez(buf, s=mine(r), n=mnp.arange(3))
    buf.seek(0)
    z = numpy.load(buf)
    assert z["s"].tolist() == r.tolist() and z["n"].tolist() == [0, 1, 2]


def test_pickle_roundtrip():
    import pickle
    m = mine(DATA["2d"])
    assert_same(pickle.loads(pickle.dumps(m)), DATA["2d"])
    assert_same(pickle.loads(pickle.dumps(m[:, ::2])), DATA["2d"][:, ::2])


# ------------------------------------------------------------------ random, vectorize, text files


def test_random_sampling_matches_numpy_streams():
    for mod in (numpy, mnp):
        mod.random.seed(3)
    assert_same(mnp.random.choice(["a", "bb", "c"], size=5), numpy.random.choice(["a", "bb", "c"], size=5))
    assert_same(mnp.random.choice(["x", "yy"]), numpy.random.choice(["x", "yy"]))
    gm, gn = mnp.random.default_rng(5), numpy.random.default_rng(5)
    assert_same(gm.choice(mine(DATA["1d"]), 4), gn.choice(DATA["1d"], 4))
    assert_same(gm.choice(mine(DATA["2d"]), 3, axis=1), gn.choice(DATA["2d"], 3, axis=1))
    assert_same(gm.permutation(mine(DATA["1d"])), gn.permutation(DATA["1d"]))
    assert_same(gm.choice(["a", "b", "c"], 2, replace=False, p=[0.5, 0.25, 0.25]),
                gn.choice(["a", "b", "c"], 2, replace=False, p=[0.5, 0.25, 0.25]))
    a, r = mine(DATA["2d"]), DATA["2d"].copy()
    mnp.random.seed(1)
    numpy.random.seed(1)
    mnp.random.shuffle(a)
    numpy.random.shuffle(r)
    assert_same(a, r)


def test_vectorize():
    both(lambda np, a: np.vectorize(lambda s: s.upper() + "!")(a), DATA["2d"])
    both(lambda np, a: np.vectorize(len)(a), DATA["1d"])
    both(lambda np, a, b: np.vectorize(lambda s, t: s + t)(a, b), DATA["1d"][:2], numpy.array([["x"], ["yy"]]))


@pytest.mark.parametrize("text, kw", [("a, b\n c ,d", {"delimiter": ","}), ("a b\n c d", {"dtype": "U1"}),
                                      ("a,1\nbb,2", {"delimiter": ",", "usecols": 0}), ("abc", {}),
                                      ("漢 é\n😀 x", {"unpack": True}), ("a b", {"ndmin": 2})])
def test_loadtxt_str(text, kw):
    kw = {"dtype": str, **kw}
    assert_same(mnp.loadtxt(io.StringIO(text), **kw), numpy.loadtxt(io.StringIO(text), **kw))


def test_savetxt_str():
    for a in (DATA["2d"], DATA["1d"]):
        bm, bn = io.StringIO(), io.StringIO()
        mnp.savetxt(bm, mine(a), fmt="%s", delimiter=",")
        numpy.savetxt(bn, a, fmt="%s", delimiter=",")
        assert bm.getvalue() == bn.getvalue()


# ------------------------------------------------------------------ printing API, testing helpers, more joins


@pytest.mark.parametrize("fn", [
    lambda np, a: np.array2string(a), lambda np, a: np.array2string(a, separator=", ", prefix="x("),
    lambda np, a: np.array_repr(a), lambda np, a: np.array_str(a), lambda np, a: np.array2string(a[0, 0]),
    lambda np, a: np.array2string(a, formatter={"all": lambda s: "<" + s.upper() + ">"}),
    lambda np, a: np.array2string(a, max_line_width=10),
])
def test_printing_api(fn):
    assert fn(mnp, mine(DATA["2d"])) == fn(numpy, DATA["2d"])


def test_testing_helpers():
    a = mine(DATA["2d"])
    mnp.testing.assert_array_equal(a, DATA["2d"])
    mnp.testing.assert_equal(a, DATA["2d"].tolist())
    with pytest.raises(AssertionError, match="Mismatched elements: 8 / 8"):
        mnp.testing.assert_array_equal(a, DATA["2d"][::-1, ::-1])


@pytest.mark.parametrize("fn", [
    lambda np, a: a == None, lambda np, a: a != None,  # noqa: E711
    lambda np, a: np.concatenate([a, a], dtype="U1"), lambda np, a: np.stack([a, a], dtype="U2"),
    lambda np, a: np.block([[a, a], [a, a]]), lambda np, a: np.block([a[:1], "zz"]),
    lambda np, a: np.meshgrid(a, a[:2]), lambda np, a: np.broadcast_arrays(a, a[:1, None]),
])
def test_more_functions(fn):
    both(fn, DATA["1d"])


def test_flat_shape_setter_and_flags():
    r = DATA["2d"].copy()
    m = mine(r)
    m.flat[1] = "z"
    r.flat[1] = "z"
    assert_same(m, r)
    assert [str(x) for x in m.T.flat] == [str(x) for x in r.T.flat]
    with pytest.raises(ValueError):
        m.T.flat[0] = "q"  # numpy writes through its flatiter; mnn's copy refuses rather than drop it
    m.shape = (4, 2)
    r.shape = (4, 2)
    assert_same(m, r)
    with pytest.raises(AttributeError):
        m.T.shape = (8,)
    assert m.flags.c_contiguous and not m.T.flags.c_contiguous and m.flags.writeable
    assert m.strides == r.strides and m.T.strides == r.T.strides
    assert numpy.frombuffer(m.tobytes(), dtype=m.dtype.str).reshape(m.shape).tolist() == r.tolist()
    assert m.tobytes() == r.tobytes() and m.T.tobytes() == r.T.tobytes()


@pytest.mark.parametrize("fn", [lambda a: float(a), lambda a: int(a), lambda a: complex(a), lambda a: bool(a)])
@pytest.mark.parametrize("text", ["1.5", " 3", "x", "", "1e3"])
def test_python_scalar_conversion(fn, text):
    both(lambda np, a: fn(a), numpy.array(text))
    both(lambda np, a: fn(a), numpy.array([text, text]))


def test_array_ndmin_and_copy_flags():
    assert_same(mnp.array(["a", "bc"], ndmin=3), numpy.array(["a", "bc"], ndmin=3))
    m = mine(DATA["1d"])
    assert mnp.asarray(m) is m and mnp.array(m, copy=False) is m
    c = mnp.array(m)
    c[0] = "changed"
    assert m[0] == "cat"


@pytest.mark.parametrize("fn", [
    lambda np, x: np.pad(x, 1), lambda np, x: np.pad(x, (1, 2), constant_values="zz"),
    lambda np, x: np.pad(x, 2, mode="edge"), lambda np, x: np.pad(x, 2, mode="reflect"),
    lambda np, x: np.diag(x), lambda np, x: np.diag(x, 1), lambda np, x: np.diag(np.diag(x)),
    lambda np, x: np.tril(np.stack([x, x, x])), lambda np, x: np.triu(np.stack([x, x]), 1),
    lambda np, x: np.trim_zeros(np.concatenate([x[3:], x, x[3:]])), lambda np, x: np.trim_zeros(x[2:], "f"),
    lambda np, x: np.choose(np.array([0, 1, 0, 1]), [x, x[::-1]]), lambda np, x: np.nan_to_num(x),
    lambda np, x: np.real(x), lambda np, x: np.imag(x), lambda np, x: np.flatnonzero(x),
    lambda np, x: np.argwhere(x), lambda np, x: np.logical_and(x, "q"), lambda np, x: np.logical_or(x, x[::-1]),
    lambda np, x: np.logical_xor(x, ""), lambda np, x: np.logical_not(x), lambda np, x: np.nanargmax(x),
    lambda np, x: np.nanargmin(x),
])
def test_fill_and_truth_functions(fn):
    both(fn, numpy.array(["b", "a", "c", ""]))


def test_partition_semantics():
    r = DATA["1d"]
    m = mine(r)
    for k in (0, 3, len(r) - 1):
        p, ap = mnp.partition(m, k), mnp.argpartition(m, k)
        s = numpy.sort(r)
        assert p[k] == s[k] and m[ap[k]] == s[k]  # the order around kth is numpy's own choice
        assert all(x <= s[k] for x in p[:k].tolist()) and all(x >= s[k] for x in p[k + 1:].tolist())


@pytest.mark.parametrize("fn, args", [("put", ([0, 2], ["x", "yyyyy"])), ("place", ("mask", ["p", "q"])),
                                      ("putmask", ("mask", ["m", "n"]))])
def test_in_place_writes(fn, args):
    r = numpy.array(["b", "a", "c", ""])
    m = mine(r)
    ra = tuple(r != "a" if x == "mask" else x for x in args)
    ma = tuple(m != "a" if x == "mask" else x for x in args)
    getattr(numpy, fn)(r, *ra)
    getattr(mnp, fn)(m, *ma)
    assert_same(m, r)


def test_str_subclasses_as_numpy_sizes_them():
    import enum

    class Color(str, enum.Enum):
        RED = "red"

    for obj in ([Color.RED, "b"], [numpy.str_("ab"), "c"]):
        assert_same(mnp.array(obj), numpy.array(obj))
    both(lambda np: np.where(np.array([True, False]), Color.RED, "b"))


@pytest.mark.parametrize("text, kw", [("a, b\n c ,d", {"delimiter": ","}), ("a, b\n c ,d", {"delimiter": ",", "autostrip": True}),
                                      ("a b\n c d\n", {}), ("x,,y\n1,2,3 # c\n", {"delimiter": ","}),
                                      ("h1,h2\na,b\n", {"delimiter": ",", "skip_header": 1}),
                                      ("a,b,c\nd,e,f", {"delimiter": ",", "usecols": (0, 2)}),
                                      ("é,漢\n😀,x", {"delimiter": ",", "dtype": "U1"})])
def test_genfromtxt_str(text, kw):
    kw = {"dtype": str, **kw}
    assert_same(mnp.genfromtxt(io.StringIO(text), **kw), numpy.genfromtxt(io.StringIO(text), **kw))


def test_where_condition_only():
    both(lambda np, a: np.where(a), numpy.array([["a", ""], ["", "b c"]]))


def test_function_forms_are_views():
    r = DATA["2d"].copy()
    m = mine(r)
    for np_, x in ((mnp, m), (numpy, r)):
        np_.reshape(x, 8)[0] = "R"
        np_.transpose(x)[0, 1] = "T"
        np_.ravel(x)[3] = "V"
        np_.squeeze(x[None])[1, 0] = "S"
        np_.swapaxes(x, 0, 1)[1, 1] = "W"
        np_.expand_dims(x, 0)[0, 0, 2] = "E"
    assert_same(m, r)


def test_numeric_array_on_the_left_of_a_string_array():
    # the engine's operators see an object that passes isinstance(ndarray) but holds no engine
    # array: they must hand over to the string array's reflected method, as numpy does
    s, x = mnp.array(["a", "bb"]), mnp.arange(2)
    ns, nx = numpy.array(["a", "bb"]), numpy.arange(2)
    numpy.testing.assert_array_equal(numpy.asarray(x == s), nx == ns)
    numpy.testing.assert_array_equal(numpy.asarray(x != s), nx != ns)
    with pytest.raises(TypeError, match="add"):
        x + s
    with pytest.raises(TypeError):
        ns + nx
