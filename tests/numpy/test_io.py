"""I/O against numpy: .npy/.npz written by mnn load in numpy and vice versa (every dtype, 0-d, empty,
non-contiguous, fortran-order, big-endian), text round trips and numpy's parsing rules, raw bytes."""
import io
import os

import numpy
import pytest

import mnn.numpy as mnp
from helpers import ALL_DTYPES, SHAPES, assert_same, sample


def _views(x):
    """(mnn array, numpy array) pairs: contiguous, transposed, negative-stride."""
    out = [(mnp.asarray(x.copy()), x)]
    if x.ndim >= 2:
        out.append((mnp.asarray(x.copy()).T, x.T))
    if x.ndim >= 1 and x.shape[-1] > 1:
        out.append((mnp.asarray(x.copy())[..., ::-1], x[..., ::-1]))
    return out


# ------------------------------------------------------------------ .npy

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_save_mnn_load_numpy(dtype, shape, tmp_path):
    x = sample(shape, dtype)
    for i, (m, ref) in enumerate(_views(x)):
        path = tmp_path / f"a{i}.npy"
        mnp.save(path, m)
        got = numpy.load(path)
        assert got.dtype == ref.dtype and got.shape == ref.shape and numpy.array_equal(got, ref)
        # byte-identical to numpy's own file for the same array layout
        b = io.BytesIO()
        numpy.save(b, ref.copy(order="A" if ref.flags.f_contiguous else "C"))
        assert path.read_bytes() == b.getvalue()


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_save_numpy_load_mnn(dtype, shape, tmp_path):
    x = sample(shape, dtype)
    path = tmp_path / "a.npy"
    numpy.save(path, x)
    assert_same(mnp.load(path), x)
    numpy.save(path, x.copy(order="F"))
    got = mnp.load(path)
    assert_same(got, x)
    if x.ndim >= 2 and x.size:
        assert got.flags.f_contiguous
    big = x.astype(x.dtype.newbyteorder(">"))
    numpy.save(path, big)
    assert_same(mnp.load(path), x)
    numpy.save(path, big.copy(order="F"))
    assert_same(mnp.load(path), x)


def test_save_appends_extension_and_file_objects(tmp_path):
    x = numpy.arange(12, dtype="float32").reshape(3, 4)
    mnp.save(str(tmp_path / "noext"), mnp.asarray(x))
    assert os.path.exists(tmp_path / "noext.npy")
    assert numpy.array_equal(numpy.load(tmp_path / "noext.npy"), x)
    b = io.BytesIO()
    mnp.save(b, mnp.asarray(x))
    mnp.save(b, mnp.asarray(x * 2))
    b.seek(0)
    assert_same(mnp.load(b), x)  # several arrays in one stream, read one after the other
    assert_same(mnp.load(b), x * 2)
    with open(tmp_path / "lists.npy", "wb") as fh:
        mnp.save(fh, [[1, 2], [3, 4]])
    assert_same(mnp.load(tmp_path / "lists.npy"), numpy.array([[1, 2], [3, 4]]))


def test_load_versions_and_mmap(tmp_path):
    x = numpy.arange(20, dtype="int16").reshape(4, 5)
    for version in [(1, 0), (2, 0), (3, 0)]:
        path = tmp_path / f"v{version[0]}.npy"
        with open(path, "wb") as fh:
            numpy.lib.format.write_array(fh, x, version=version)
        assert_same(mnp.load(path), x)
    path = tmp_path / "m.npy"
    numpy.save(path, x)
    m = mnp.load(path, mmap_mode="r")
    assert_same(m, x)
    assert not m.flags.writeable
    w = mnp.load(path, mmap_mode="r+")
    w[0, 0] = 99
    del w
    import gc
    gc.collect()
    assert numpy.load(path)[0, 0] == 99
    c = mnp.load(path, mmap_mode="c")
    c[0, 1] = -7
    assert numpy.load(path)[0, 1] == 1 and int(c[0, 1]) == -7


def test_load_errors(tmp_path):
    path = tmp_path / "obj.npy"
    numpy.save(path, numpy.array([{"a": 1}, None], dtype=object))
    with pytest.raises(ValueError):
        numpy.load(path)
    with pytest.raises(ValueError, match=r"\[mnn\.numpy\.load\]"):
        mnp.load(path)
    path = tmp_path / "pickle.bin"
    import pickle
    path.write_bytes(pickle.dumps([1, 2]))
    with pytest.raises(ValueError):
        numpy.load(path)
    with pytest.raises(ValueError, match=r"\[mnn\.numpy\.load\]"):
        mnp.load(path)
    assert mnp.load(path, allow_pickle=True) == [1, 2]
    path = tmp_path / "trunc.npy"
    numpy.save(path, numpy.arange(100.0))
    path.write_bytes(path.read_bytes()[:-8])
    with pytest.raises(ValueError):
        numpy.load(path)
    with pytest.raises(ValueError, match=r"\[mnn\.numpy\.load\]"):
        mnp.load(path)
    path = tmp_path / "complex.npy"
    numpy.save(path, numpy.arange(3) * 1j)
    with pytest.raises(TypeError, match=r"\[mnn\.numpy\.load\]"):
        mnp.load(path)
    path = tmp_path / "empty.npy"
    path.write_bytes(b"")
    with pytest.raises(EOFError):
        numpy.load(path)
    with pytest.raises(EOFError):
        mnp.load(path)
    with pytest.raises(FileNotFoundError):
        mnp.load(tmp_path / "missing.npy")


# ------------------------------------------------------------------ .npz

@pytest.mark.parametrize("compressed", [False, True])
def test_savez_both_directions(compressed, tmp_path):
    arrays = {"a": sample((3, 4), "float32"), "b": sample((), "int64"), "c": sample((0, 2), "uint8"),
              "d": sample((5,), "bool")}
    save_m = mnp.savez_compressed if compressed else mnp.savez
    save_n = numpy.savez_compressed if compressed else numpy.savez
    path = tmp_path / "m.npz"
    save_m(path, arrays["a"], mnp.asarray(arrays["a"]).T, **{k: mnp.asarray(v) for k, v in arrays.items()})
    with numpy.load(path) as z:
        assert sorted(z.files) == ["a", "arr_0", "arr_1", "b", "c", "d"]
        for k, v in arrays.items():
            assert z[k].dtype == v.dtype and numpy.array_equal(z[k], v)
        assert numpy.array_equal(z["arr_1"], arrays["a"].T)
    path = tmp_path / "n.npz"
    save_n(path, arrays["a"], **arrays)
    with mnp.load(path) as z:
        assert isinstance(z, mnp.NpzFile)
        assert sorted(z.files) == ["a", "arr_0", "b", "c", "d"] and len(z) == 5 and "a" in z and "a.npy" in z
        for k, v in arrays.items():
            assert_same(z[k], v)
            assert_same(getattr(z.f, k), v)
        assert_same(z["arr_0.npy"], arrays["a"])
        assert sorted(z.keys()) == sorted(z.files) and len(z.items()) == 5
        with pytest.raises(KeyError):
            z["nope"]
    with pytest.raises(ValueError):
        z["a"]  # closed
    with zipfile_open(path) as zf:
        info = zf.infolist()[0]
        assert info.compress_type == (8 if compressed else 0)


def zipfile_open(path):
    import zipfile
    return zipfile.ZipFile(path)


def test_savez_extension_and_name_clash(tmp_path):
    mnp.savez(str(tmp_path / "x"), mnp.arange(3))
    assert os.path.exists(tmp_path / "x.npz")
    with pytest.raises(ValueError):
        numpy.savez(tmp_path / "y.npz", numpy.arange(3), arr_0=numpy.arange(2))
    with pytest.raises(ValueError):
        mnp.savez(tmp_path / "y.npz", mnp.arange(3), arr_0=mnp.arange(2))
    b = io.BytesIO()
    mnp.savez(b, q=mnp.ones((2, 2)))
    b.seek(0)
    assert numpy.array_equal(numpy.load(b)["q"], numpy.ones((2, 2)))


# ------------------------------------------------------------------ text

@pytest.mark.parametrize("kw", [{}, {"fmt": "%d", "delimiter": ","}, {"fmt": "%.3f", "header": "a b\nc"},
                                {"fmt": ["%d", "%.2e", "%5.1f"], "delimiter": "\t", "footer": "end", "comments": "// "},
                                {"fmt": "%g %g %g", "newline": ";\n"}])
def test_savetxt_matches_numpy(kw):
    x = sample((4, 3), "float64")
    got, ref = io.StringIO(), io.StringIO()
    mnp.savetxt(got, mnp.asarray(x), **kw)
    numpy.savetxt(ref, x, **kw)
    assert got.getvalue() == ref.getvalue()
    for data in (sample((5,), "int32"), sample((2, 2), "bool"), sample((0, 3), "float32")):
        got, ref = io.StringIO(), io.StringIO()
        mnp.savetxt(got, mnp.asarray(data))
        numpy.savetxt(ref, data)
        assert got.getvalue() == ref.getvalue()


def test_savetxt_paths_and_errors(tmp_path):
    x = numpy.arange(6.0).reshape(2, 3)
    mnp.savetxt(tmp_path / "m.txt", mnp.asarray(x), fmt="%.1f")
    numpy.savetxt(tmp_path / "n.txt", x, fmt="%.1f")
    assert (tmp_path / "m.txt").read_bytes() == (tmp_path / "n.txt").read_bytes()
    b = io.BytesIO()
    mnp.savetxt(b, mnp.asarray(x), fmt="%.1f")
    assert b.getvalue() == (tmp_path / "n.txt").read_bytes()
    for bad in ("%d %d", ["%d"]):
        with pytest.raises((ValueError, AttributeError)):
            numpy.savetxt(io.StringIO(), x, fmt=bad)
        with pytest.raises((ValueError, AttributeError)):
            mnp.savetxt(io.StringIO(), mnp.asarray(x), fmt=bad)
    with pytest.raises(ValueError):
        mnp.savetxt(io.StringIO(), mnp.zeros((2, 2, 2)))


TEXT = """# a comment line
1 2 3
4 5 6  # trailing comment

7 8 9
"""


@pytest.mark.filterwarnings("ignore:Input line")  # numpy's note on max_rows counting rows, not lines
@pytest.mark.parametrize("kw", [{}, {"dtype": "int32"}, {"usecols": (0, 2)}, {"usecols": 1}, {"skiprows": 2},
                                {"max_rows": 2}, {"unpack": True}, {"ndmin": 2, "usecols": 1}, {"dtype": "float32"}])
def test_loadtxt_matches_numpy(kw):
    assert_same(mnp.loadtxt(io.StringIO(TEXT), **kw), numpy.loadtxt(io.StringIO(TEXT), **kw))


def test_loadtxt_more():
    csv = "x,y\n1.5,-2\nnan,inf\n"
    assert_same(mnp.loadtxt(io.StringIO(csv), delimiter=",", skiprows=1),
                numpy.loadtxt(io.StringIO(csv), delimiter=",", skiprows=1))
    lines = ["1;2", "3;4"]
    assert_same(mnp.loadtxt(lines, delimiter=";", dtype=int), numpy.loadtxt(lines, delimiter=";", dtype=int))
    assert_same(mnp.loadtxt(io.StringIO("%x\n5\n"), comments="%"), numpy.loadtxt(io.StringIO("%x\n5\n"), comments="%"))
    assert_same(mnp.loadtxt(io.StringIO("1 2 3\n")), numpy.loadtxt(io.StringIO("1 2 3\n")))
    conv = {0: lambda s: float(s) * 10}
    assert_same(mnp.loadtxt(io.StringIO("1 2\n3 4\n"), converters=conv),
                numpy.loadtxt(io.StringIO("1 2\n3 4\n"), converters=conv))
    for bad in ("1 2\n3\n", "1 x\n"):
        with pytest.raises(ValueError):
            numpy.loadtxt(io.StringIO(bad))
        with pytest.raises(ValueError, match=r"\[mnn\.numpy\.loadtxt\]"):
            mnp.loadtxt(io.StringIO(bad))
    with pytest.raises(ValueError):
        mnp.loadtxt(io.StringIO("1.5\n"), dtype=int)
    with pytest.warns(UserWarning):
        e = mnp.loadtxt(io.StringIO("# nothing\n"))
    with pytest.warns(UserWarning):
        assert_same(e, numpy.loadtxt(io.StringIO("# nothing\n")))


def test_loadtxt_file_roundtrip(tmp_path):
    x = sample((6, 4), "float64")
    numpy.savetxt(tmp_path / "a.txt", x)
    assert_same(mnp.loadtxt(tmp_path / "a.txt"), numpy.loadtxt(tmp_path / "a.txt"))
    mnp.savetxt(tmp_path / "b.txt.gz", mnp.asarray(x))
    assert_same(mnp.loadtxt(tmp_path / "b.txt.gz"), x)
    assert numpy.array_equal(numpy.loadtxt(tmp_path / "b.txt.gz"), x)


@pytest.mark.parametrize("text,kw", [
    ("1,2,\n4,,6\n", {"delimiter": ","}),
    ("1,2,3\n4,N/A,6\n", {"delimiter": ",", "missing_values": "N/A"}),
    ("1,2,3\n4,N/A,6\n", {"delimiter": ",", "missing_values": "N/A", "filling_values": 0}),
    ("1 2 3\n4 5 6\n", {"dtype": None}),
    ("1.5 2.5 3\n4 5.5 6.0\n", {"dtype": None}),
    ("h1 h2\n1 2\n3 4\n", {"skip_header": 1}),
    ("1 2\n3 4\n5 6\n# c\n", {"skip_footer": 1}),
    ("1 2 3\n4 5 6\n", {"usecols": (0, 2), "dtype": int}),
    ("1 2 3\n", {}),
    ("1\n2\n3\n", {}),
    ("1,,3\n", {"delimiter": ",", "dtype": int}),
    ("1 2\n3 4\n", {"unpack": True}),
    ("1 2\n3 4\n5 6\n", {"max_rows": 2}),
])
def test_genfromtxt_matches_numpy(text, kw):
    assert_same(mnp.genfromtxt(io.StringIO(text), **kw), numpy.genfromtxt(io.StringIO(text), **kw))


def test_genfromtxt_mixed_columns_need_structured_dtype():
    assert numpy.genfromtxt(io.StringIO("1 2.5\n3 4.5\n"), dtype=None).dtype.names  # numpy: structured
    with pytest.raises(NotImplementedError, match=r"\[mnn\.numpy\.genfromtxt\]"):
        mnp.genfromtxt(io.StringIO("1 2.5\n3 4.5\n"), dtype=None)


def test_genfromtxt_bad_rows():
    text = "1 2\n3 4 5\n6 7\n"
    with pytest.raises(ValueError):
        numpy.genfromtxt(io.StringIO(text))
    with pytest.raises(ValueError, match=r"\[mnn\.numpy\.genfromtxt\]"):
        mnp.genfromtxt(io.StringIO(text))
    with pytest.warns(Warning):
        ref = numpy.genfromtxt(io.StringIO(text), invalid_raise=False)
    with pytest.warns(Warning):
        got = mnp.genfromtxt(io.StringIO(text), invalid_raise=False)
    assert_same(got, ref)


# ------------------------------------------------------------------ bytes and raw files

@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_tobytes(dtype, shape):
    x = sample(shape, dtype)
    for m, ref in _views(x):
        for order in ("C", "F", "A", "K"):
            assert m.tobytes(order) == ref.tobytes(order), order
        assert m.tobytes() == ref.tobytes()


@pytest.mark.parametrize("dtype", ["uint8", "int32", "float64", "bool", "float16"])
def test_tofile_fromfile(dtype, tmp_path):
    x = sample((3, 5), dtype)
    mnp.asarray(x).tofile(tmp_path / "m.bin")
    x.tofile(tmp_path / "n.bin")
    assert (tmp_path / "m.bin").read_bytes() == (tmp_path / "n.bin").read_bytes()
    assert_same(mnp.fromfile(tmp_path / "n.bin", dtype=dtype), numpy.fromfile(tmp_path / "n.bin", dtype=dtype))
    assert_same(mnp.fromfile(tmp_path / "n.bin", dtype=dtype, count=4, offset=x.itemsize),
                numpy.fromfile(tmp_path / "n.bin", dtype=dtype, count=4, offset=x.itemsize))
    mnp.asarray(x).T.tofile(tmp_path / "t.bin")
    assert (tmp_path / "t.bin").read_bytes() == x.T.tobytes()
    with open(tmp_path / "n.bin", "rb") as fh:
        assert_same(mnp.fromfile(fh, dtype=dtype, count=5), x.ravel()[:5])
        assert_same(mnp.fromfile(fh, dtype=dtype, count=5), x.ravel()[5:10])
    if dtype in ("int32", "float64"):
        mnp.asarray(x).tofile(tmp_path / "m.txt", sep=",", format="%s")
        x.tofile(tmp_path / "n.txt", sep=",", format="%s")
        assert (tmp_path / "m.txt").read_text() == (tmp_path / "n.txt").read_text()
        assert_same(mnp.fromfile(tmp_path / "n.txt", dtype=dtype, sep=","),
                    numpy.fromfile(tmp_path / "n.txt", dtype=dtype, sep=","))


def test_frombuffer_roundtrip():
    x = sample((4, 3), "float32")
    assert_same(mnp.frombuffer(mnp.asarray(x).tobytes(), dtype="float32").reshape(4, 3), x)
    assert_same(mnp.frombuffer(x.tobytes(), dtype="uint8"), numpy.frombuffer(x.tobytes(), dtype="uint8"))
