"""File I/O in numpy's own formats, on the standard library only.

.npy (format versions 1.0-3.0, https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
magic, version, a little-endian header length, then an ASCII Python-literal dict with 'descr',
'fortran_order' and 'shape', padded so the data starts on a 64-byte boundary, then the raw
elements. .npz is a zip archive of .npy members. Files written here load in numpy and files
written by numpy load here (fortran-order and big-endian data included); the text functions
follow numpy's savetxt/loadtxt/genfromtxt for the numeric dtypes mnn has.
"""
import ast
import io
import mmap
import os
import warnings
import zipfile

from .. import _core
from . import _dtypes
from . import _strings_io
from ._common import asarray, bfloat16_bits, ndarray

__all__ = ["save", "load", "savez", "savez_compressed", "NpzFile", "savetxt", "loadtxt", "genfromtxt", "fromfile"]

_MAGIC = b"\x93NUMPY"
_ALIGN = 64
_KINDS = {"b": "bool", "i": "int", "u": "uint", "f": "float"}


# ------------------------------------------------------------------ .npy

def _header_bytes(a):
    dt = a.dtype
    fortran = a.ndim > 1 and a.size > 0 and not _c_contiguous(a) and a.flags.f_contiguous
    d = "{'descr': %r, 'fortran_order': %r, 'shape': %r, }" % (dt.str, fortran, tuple(a.shape))
    for version, size_fmt in (((1, 0), 2), ((2, 0), 4)):
        pre = len(_MAGIC) + 2 + size_fmt
        total = pre + len(d) + 1
        pad = (-total) % _ALIGN
        body = (d + " " * pad + "\n").encode("latin1")
        if size_fmt == 2 and len(body) >= 65536:
            continue
        return _MAGIC + bytes(version) + len(body).to_bytes(size_fmt, "little") + body, fortran
    raise ValueError("[mnn.numpy.save] header too large")  # unreachable: version 2 holds 4 GiB


def _c_contiguous(a):
    """numpy's C_CONTIGUOUS flag: strides of length-1 axes do not matter; empty arrays always qualify."""
    if a.size == 0:
        return True
    expect = 1
    for n, st in zip(reversed(a.shape), reversed(a._strides_elems)):
        if n != 1 and st != expect:
            return False
        expect *= n
    return True


def _data_bytes(a, fortran):
    """The array's elements in C order (or F order when the header says so), as bytes."""
    src = a.T if fortran else a
    if a.size == 0:
        return b""
    return memoryview(_core.as_contiguous(src)).cast("B").tobytes() if not src._is_c_contiguous else \
        memoryview(src).cast("B").tobytes()


def _write_npy(fh, a):
    if a.dtype.kind == "U":  # a StrArray: its code array's bytes are numpy's '<U' layout
        return _strings_io.write_npy(fh, a, _header_bytes)
    header, fortran = _header_bytes(a)
    fh.write(header)
    fh.write(_data_bytes(a, fortran))


def _open_for(file, mode, fn):
    if hasattr(file, "write" if "w" in mode else "read"):
        return file, False
    if isinstance(file, (str, bytes, os.PathLike)):
        return open(file, mode), True
    raise TypeError(f"[mnn.numpy.{fn}] expected a file name, a path or a file object, not {type(file).__name__}")


def save(file, arr, allow_pickle=True, fix_imports=True):
    """numpy.save: one array in .npy format; '.npy' is appended to a string path that lacks it."""
    a = _strings_io.asarray_any(arr)
    if isinstance(file, (str, os.PathLike)):
        file = os.fspath(file)
        if not file.endswith(".npy"):
            file += ".npy"
    fh, own = _open_for(file, "wb", "save")
    try:
        _write_npy(fh, a)
    finally:
        if own:
            fh.close()


def _parse_descr(descr, fn):
    """(mnn dtype, byte order, itemsize) of a .npy descr; only the numeric dtypes mnn has."""
    if not isinstance(descr, str):
        raise TypeError(f"[mnn.numpy.{fn}] structured dtypes are not supported (descr {descr!r})")
    order = descr[0] if descr[:1] in "<>|=" else "="
    body = descr[1:] if descr[:1] in "<>|=" else descr
    kind, size = body[:1], body[1:]
    if kind == "O":
        raise ValueError(f"[mnn.numpy.{fn}] Object arrays cannot be loaded when allow_pickle=False")
    if kind == "U" and size.isdigit() and order in "<>|=":
        return _dtypes.unicode_dtype(int(size)), order, 4 * int(size)
    if kind not in _KINDS or not size.isdigit():
        raise TypeError(f"[mnn.numpy.{fn}] data type {descr!r} is not supported by mnn")
    name = "bool" if kind == "b" else _KINDS[kind] + str(8 * int(size))
    try:
        dt = _dtypes.dtype(name)
    except TypeError:
        raise TypeError(f"[mnn.numpy.{fn}] data type {descr!r} is not supported by mnn") from None
    return dt, order, int(size)


def _read_header(fh, fn, max_header_size=10000):
    magic = fh.read(len(_MAGIC))
    if magic != _MAGIC:
        raise ValueError(f"[mnn.numpy.{fn}] the magic string is not correct; expected {_MAGIC!r}, got {magic!r}")
    major, minor = fh.read(2)
    if (major, minor) not in ((1, 0), (2, 0), (3, 0)):
        raise ValueError(f"[mnn.numpy.{fn}] we only support format version (1,0), (2,0), and (3,0), not "
                         f"{(major, minor)}")
    n = int.from_bytes(fh.read(2 if major == 1 else 4), "little")
    raw = fh.read(n)
    if len(raw) != n:
        raise ValueError(f"[mnn.numpy.{fn}] EOF while reading the array header")
    if n > max_header_size:
        raise ValueError(f"[mnn.numpy.{fn}] Header info length ({n}) is large and may not be safe to load securely. "
                         "To allow loading, adjust `max_header_size` or fully trust the `.npy` file using "
                         "`allow_pickle=True`.")
    text = raw.decode("utf8" if major == 3 else "latin1")
    try:
        d = ast.literal_eval(text)
    except (SyntaxError, ValueError):
        raise ValueError(f"[mnn.numpy.{fn}] Cannot parse header: {text!r}") from None
    if not isinstance(d, dict) or set(d) != {"descr", "fortran_order", "shape"}:
        raise ValueError(f"[mnn.numpy.{fn}] Header does not contain the correct keys: {text!r}")
    shape = d["shape"]
    if not isinstance(shape, tuple) or not all(isinstance(x, int) and x >= 0 for x in shape):
        raise ValueError(f"[mnn.numpy.{fn}] shape is not valid: {shape!r}")
    if not isinstance(d["fortran_order"], bool):
        raise ValueError(f"[mnn.numpy.{fn}] fortran_order is not a valid bool: {d['fortran_order']!r}")
    return d["descr"], d["fortran_order"], shape


def _byteswap(data, k):
    """Reverses the bytes of every k-byte element (big-endian files on this little-endian engine)."""
    out = bytearray(len(data))
    for j in range(k):
        out[j::k] = data[k - 1 - j::k]
    return out


def _from_bytes(data, dt, shape, fortran):
    count = 1
    for s in shape:
        count *= s
    a = _core.from_buffer(memoryview(data).cast("B"), dt._code) if count else _core.empty([0], dt._code)
    if fortran:
        return _core.reshape(a, list(shape[::-1])).T if len(shape) > 1 else _core.reshape(a, list(shape))
    return _core.reshape(a, list(shape))


def _read_npy(fh, fn="load", mmap_mode=None, max_header_size=10000):
    descr, fortran, shape = _read_header(fh, fn, max_header_size)
    dt, order, k = _parse_descr(descr, fn)
    if dt.kind == "U":
        mmap_mode = None  # string arrays are read into memory
    count = 1
    for s in shape:
        count *= s
    nbytes = count * k
    if mmap_mode is not None and (order == ">" and k > 1 or not nbytes):
        mmap_mode = None  # a byte-swapped or empty array cannot be a view of the file: read it
    if mmap_mode is not None and hasattr(fh, "fileno"):
        access = {"r": mmap.ACCESS_READ, "r+": mmap.ACCESS_WRITE, "c": mmap.ACCESS_COPY}[mmap_mode]
        mm = mmap.mmap(fh.fileno(), 0, access=access)
        start = fh.tell()
        a = _core.from_buffer(memoryview(mm)[start:start + nbytes], dt._code)
        a = _core.reshape(a, list(shape[::-1] if fortran else shape))
        return a.T if fortran else a
    data = bytearray(fh.read(nbytes))
    if len(data) != nbytes:
        raise ValueError(f"[mnn.numpy.{fn}] Failed to read all data for array. Expected {shape} = {count} elements, "
                         f"could only read {len(data) // max(k, 1)} elements. (file seems not fully written?)")
    if dt.kind == "U":
        return _strings_io.from_npy_bytes(_byteswap(data, 4) if order == ">" else data, dt, shape, fortran)
    if order == ">" and k > 1:
        data = _byteswap(data, k)
    return _from_bytes(data, dt, shape, fortran)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *, max_header_size=10000):
    """numpy.load: an ndarray for .npy, an NpzFile for .npz. mmap_mode 'r', 'r+', 'c' map the file."""
    if mmap_mode not in (None, "r", "r+", "c", "readonly", "readwrite", "copyonwrite"):
        raise ValueError(f"[mnn.numpy.load] mode must be one of ['r', 'c', 'r+', 'w+'], not {mmap_mode!r}")
    mmap_mode = {"readonly": "r", "readwrite": "r+", "copyonwrite": "c"}.get(mmap_mode, mmap_mode)
    own = False
    if hasattr(file, "read"):
        fh = file
    else:
        fh = open(os.fspath(file), "r+b" if mmap_mode == "r+" else "rb")
        own = True
    try:
        pos = fh.tell() if hasattr(fh, "tell") else None
        head = fh.read(len(_MAGIC))
        if pos is not None:
            fh.seek(pos)
        if not head:
            raise EOFError("[mnn.numpy.load] No data left in file")
        if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
            own_now = own
            own = False  # the NpzFile closes it
            return NpzFile(fh, own_fid=own_now, allow_pickle=allow_pickle, max_header_size=max_header_size)
        if head == _MAGIC:
            return _read_npy(fh, "load", mmap_mode, max_header_size)
        if not allow_pickle:
            raise ValueError("[mnn.numpy.load] This file contains pickled (object) data. If you trust the file you "
                             "can load it unsafely using the `allow_pickle=` keyword argument or `pickle.load()`.")
        import pickle
        return pickle.load(fh, fix_imports=fix_imports, encoding=encoding)
    finally:
        if own:
            fh.close()


# ------------------------------------------------------------------ .npz

def _savez(file, args, kwds, compress, fn):
    named = {}
    for i, a in enumerate(args):
        key = f"arr_{i}"
        if key in kwds:
            raise ValueError(f"[mnn.numpy.{fn}] Cannot use un-named variables and keyword {key}")
        named[key] = a
    named.update(kwds)
    if isinstance(file, (str, os.PathLike)):
        file = os.fspath(file)
        if not file.endswith(".npz"):
            file += ".npz"
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(file, mode="w", compression=method, allowZip64=True) as zf:
        for key, val in named.items():
            with zf.open(key + ".npy", "w", force_zip64=True) as member:
                _write_npy(member, _strings_io.asarray_any(val))


def savez(file, *args, allow_pickle=True, **kwds):
    """numpy.savez: several arrays in one uncompressed .npz (positional ones are arr_0, arr_1, ...)."""
    _savez(file, args, kwds, False, "savez")


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """numpy.savez_compressed: as savez, deflate-compressed."""
    _savez(file, args, kwds, True, "savez_compressed")


class NpzFile:
    """The lazy dict-like result of load() on an .npz: arrays are read when their key is accessed."""

    def __init__(self, fid, own_fid=False, allow_pickle=False, pickle_kwargs=None, *, max_header_size=10000):
        self.zip = zipfile.ZipFile(fid)
        self._files = self.zip.namelist()
        self.files = [f[:-4] if f.endswith(".npy") else f for f in self._files]
        self.allow_pickle = allow_pickle
        self.max_header_size = max_header_size
        self.fid = fid if own_fid else None
        self.f = _Attr(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.zip is not None:
            self.zip.close()
            self.zip = None
        if self.fid is not None:
            self.fid.close()
            self.fid = None
        self.f = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def __contains__(self, key):
        return key in self.files or key in self._files

    def keys(self):
        return list(self.files)

    def values(self):
        return [self[k] for k in self.files]

    def items(self):
        return [(k, self[k]) for k in self.files]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __getitem__(self, key):
        if self.zip is None:
            raise ValueError("[mnn.numpy.load] I/O operation on closed NpzFile")
        member = key
        if key in self.files and key not in self._files:
            member = self._files[self.files.index(key)]
        elif key not in self._files:
            raise KeyError(f"{key} is not a file in the archive")
        with self.zip.open(member) as fh:
            data = fh.read()
        if data.startswith(_MAGIC):
            return _read_npy(io.BytesIO(data), "load", None, self.max_header_size)
        return data  # numpy returns non-.npy members as raw bytes

    def __repr__(self):
        name = getattr(self.fid, "name", "object")
        shown = ", ".join(self.files[:5]) + (", ..." if len(self.files) > 5 else "")
        return f"NpzFile {name!r} with keys: {shown}"


class _Attr:
    """npz.f.name: attribute access to the archive's arrays."""

    def __init__(self, owner):
        object.__setattr__(self, "_owner", owner)

    def __getattr__(self, key):
        try:
            return self._owner[key]
        except KeyError:
            raise AttributeError(key) from None

    def __dir__(self):
        return self._owner.files


# ------------------------------------------------------------------ text

def _text_lines(fname, fn, encoding=None):
    """(iterable of str lines, closer): paths (.gz/.bz2/.xz too), file objects, lists of lines."""
    if isinstance(fname, (str, os.PathLike)):
        path = os.fspath(fname)
        if path.endswith(".gz"):
            import gzip
            fh = gzip.open(path, "rt", encoding=encoding)
        elif path.endswith(".bz2"):
            import bz2
            fh = bz2.open(path, "rt", encoding=encoding)
        elif path.endswith(".xz"):
            import lzma
            fh = lzma.open(path, "rt", encoding=encoding)
        else:
            fh = open(path, "r", encoding=encoding)
        return fh, fh.close
    if hasattr(fname, "read"):
        return fname, None
    try:
        return iter(fname), None
    except TypeError:
        raise TypeError(f"[mnn.numpy.{fn}] fname must be a string, a filehandle, a sequence of strings, or an "
                        f"iterator of strings. Got {type(fname)} instead.") from None


def _decode(line):
    return line.decode("latin1") if isinstance(line, bytes) else line


def _strip_comment(line, comments):
    for c in comments:
        i = line.find(c)
        if i >= 0:
            line = line[:i]
    return line


def _comments_list(comments):
    if comments is None:
        return []
    if isinstance(comments, (str, bytes)):
        return [_decode(comments)]
    return [_decode(c) for c in comments]


def _split(line, delimiter):
    line = line.rstrip("\r\n")
    if delimiter is None:
        return line.split()
    return line.split(delimiter)


def _usecols_list(usecols):
    if usecols is None:
        return None
    if isinstance(usecols, int) or hasattr(usecols, "__index__"):
        return [int(usecols)]
    return [int(c) for c in usecols]


def _parse_value(s, kind, fn):
    if kind == "U":  # numpy keeps a string field as it is
        return s
    s = s.strip()
    if kind == "f":
        return float(s)
    if kind == "b":
        return bool(int(float(s))) if s not in ("True", "False") else s == "True"
    try:
        return int(s)
    except ValueError:
        raise ValueError(f"[mnn.numpy.{fn}] invalid literal for int(): {s!r}") from None


def _finish(rows, ncols, dt, ndmin, unpack, fn):
    n = len(rows)
    flat = [v for r in rows for v in r]
    if dt.kind == "U":
        return _strings_io.finish_text(flat, n, ncols, dt, ndmin, unpack, fn)
    a = _core.from_list(flat, [n, ncols] if n else [0], dt._code)
    if ndmin not in (0, 1, 2):
        raise ValueError(f"[mnn.numpy.{fn}] Illegal value of ndmin keyword: {ndmin}")
    shape = tuple(a.shape)
    if a.ndim == 2:  # numpy squeezes single rows and columns down to what ndmin allows
        if ndmin < 2:
            if shape[0] == 1 and shape[1] == 1:
                a = _core.reshape(a, [] if ndmin == 0 else [1])
            elif shape[0] == 1 or shape[1] == 1:
                a = _core.reshape(a, [shape[0] * shape[1]])
    elif ndmin == 2:
        a = _core.reshape(a, [a.shape[0], 1] if a.ndim == 1 else [1, 1])
    if unpack:
        return a.T if a.ndim > 1 else a
    return a


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows=0, usecols=None,
            unpack=False, ndmin=0, encoding=None, max_rows=None, *, quotechar=None, like=None):
    """numpy.loadtxt for numeric dtypes: one row per non-empty line, every row the same length."""
    fn = "loadtxt"
    dt = _dtypes.dtype(dtype)
    if delimiter is not None:
        delimiter = _decode(delimiter)
        if delimiter in _comments_list(comments):
            raise TypeError(f"[mnn.numpy.{fn}] Comment characters '{comments}' cannot include the delimiter "
                            f"'{delimiter}'")
    cmts = _comments_list(comments)
    cols = _usecols_list(usecols)
    lines, closer = _text_lines(fname, fn, encoding)
    rows, ncols = [], None
    try:
        for lineno, line in enumerate(lines, 1):
            if lineno <= skiprows:
                continue
            if max_rows is not None and len(rows) >= max_rows:
                break
            fields = _split(_strip_comment(_decode(line), cmts), delimiter)
            if not fields or (delimiter is None and not any(fields)) or fields == [""]:
                continue
            if cols is not None:
                try:
                    fields = [fields[c] for c in cols]
                except IndexError:
                    raise ValueError(f"[mnn.numpy.{fn}] invalid column index {max(cols)} at row {lineno} with "
                                     f"{len(fields)} columns") from None
            if ncols is None:
                ncols = len(fields)
            elif len(fields) != ncols:
                raise ValueError(f"[mnn.numpy.{fn}] the number of columns changed from {ncols} to {len(fields)} at "
                                 f"row {lineno}; use `usecols` to select a subset and avoid this error")
            row = []
            for j, f in enumerate(fields):
                conv = None if converters is None else (converters.get(cols[j] if cols else j) if isinstance(
                    converters, dict) else converters)
                try:
                    row.append(conv(f) if conv is not None else _parse_value(f, dt.kind, fn))
                except ValueError:
                    raise ValueError(f"[mnn.numpy.{fn}] could not convert string {f.strip()!r} to {dt.name} at row "
                                     f"{lineno}, column {j + 1}.") from None
            rows.append(row)
    finally:
        if closer:
            closer()
    if not rows:
        warnings.warn(f"loadtxt: input contained no data: {fname!r}", UserWarning, stacklevel=2)
    return _finish(rows, ncols if ncols is not None else 0, dt, ndmin, unpack, fn)


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0, skip_footer=0, converters=None,
               missing_values=None, filling_values=None, usecols=None, names=None, excludelist=None,
               deletechars=None, replace_space="_", autostrip=False, case_sensitive=True, defaultfmt="f%i",
               unpack=None, usemask=False, loose=True, invalid_raise=True, max_rows=None, encoding=None, *,
               ndmin=0, like=None):
    """numpy.genfromtxt for numeric dtypes: empty fields and `missing_values` become `filling_values`
    (nan for floats, -1 for integers); dtype=None picks int64 when every value is an integer."""
    fn = "genfromtxt"
    if names not in (None, False):
        raise NotImplementedError(f"[mnn.numpy.{fn}] structured arrays (names=) are not supported")
    if usemask:
        raise NotImplementedError(f"[mnn.numpy.{fn}] masked arrays (usemask=True) are not supported")
    if max_rows is not None and skip_footer:
        raise ValueError(f"[mnn.numpy.{fn}] The keywords 'skip_footer' and 'max_rows' can not be specified at the "
                         "same time.")
    if isinstance(delimiter, int):
        raise NotImplementedError(f"[mnn.numpy.{fn}] fixed-width fields are not supported")
    delimiter = None if delimiter is None else _decode(delimiter)
    cmts = _comments_list(comments)
    cols = _usecols_list(usecols)
    if missing_values is None:
        missing = {""}
    elif isinstance(missing_values, (str, bytes)):
        missing = {""} | {_decode(m).strip() for m in _decode(missing_values).split(",")}
    else:
        missing = {""} | {_decode(m).strip() for m in (missing_values.values() if isinstance(missing_values, dict)
                                                     else missing_values)}
    lines, closer = _text_lines(fname, fn, encoding)
    raw, ncols, bad = [], None, []
    try:
        all_lines = [_decode(x) for x in lines]
    finally:
        if closer:
            closer()
    body = all_lines[skip_header:]
    records = []
    for k, line in enumerate(body):
        fields = _split(_strip_comment(line, cmts), delimiter)
        if delimiter is None:
            if not fields:
                continue
        elif not line.strip() or not _strip_comment(line, cmts).strip():
            continue
        records.append((skip_header + k + 1, fields))
    if skip_footer:
        records = records[:-skip_footer] if skip_footer < len(records) else []
    str_mode = dtype is not None and _dtypes.dtype(dtype).kind == "U"
    for lineno, fields in records:
        if not str_mode:
            fields = [f.strip() for f in fields]
        elif autostrip:
            fields = [f.strip() for f in fields]
        elif delimiter is not None and fields:  # numpy strips the line's outer spaces, not the fields'
            fields = list(fields)
            fields[0] = fields[0].lstrip(" ")
            fields[-1] = fields[-1].rstrip(" ")
        if cols is not None:
            try:
                fields = [fields[c] for c in cols]
            except IndexError:
                bad.append((lineno, len(fields)))
                continue
        if ncols is None:
            ncols = len(fields)
        elif len(fields) != ncols:
            bad.append((lineno, len(fields)))
            continue
        raw.append(fields)
        if max_rows is not None and len(raw) >= max_rows:
            break
    if bad:
        msg = "\n".join(f"    Line #{ln} (got {n} columns instead of {ncols})" for ln, n in bad)
        if invalid_raise:
            raise ValueError(f"[mnn.numpy.{fn}] Some errors were detected !\n{msg}")
        warnings.warn(f"Some errors were detected !\n{msg}", stacklevel=2)

    def parse_float(s, j):
        if s in missing:
            return None
        conv = converters.get(cols[j] if cols else j) if isinstance(converters, dict) else None
        if conv is not None:
            return conv(s)
        try:
            return float(s)
        except ValueError:
            return None if loose else _raise(ValueError(f"[mnn.numpy.{fn}] could not convert {s!r}"))

    if dtype is None:  # numpy's autodetection, restricted to the numeric kinds
        def is_int(s):
            try:
                int(s)
                return True
            except ValueError:
                return False
        col_int = [all(is_int(r[j]) for r in raw) for j in range(ncols or 0)]
        if len(set(col_int)) > 1:
            raise NotImplementedError(f"[mnn.numpy.{fn}] dtype=None found integer and float columns: numpy returns a "
                                      "structured array there, which mnn does not support; pass dtype=float")
        dt = _dtypes.dtype("int64" if raw and all(col_int) else "float64")
    else:
        dt = _dtypes.dtype(dtype)
        if dt.kind == "U":  # strings: the fields as they are (an empty one stays '')
            if not raw:
                warnings.warn(f'genfromtxt: Empty input file: "{fname}"', UserWarning, stacklevel=2)
            return _strings_io.finish_text([f for r in raw for f in r], len(raw), ncols or 0, dt, ndmin,
                                           bool(unpack), fn)
    if filling_values is None:
        fill = [float("nan") if dt.kind == "f" else (True if dt.kind == "b" else -1)] * (ncols or 0)
    elif isinstance(filling_values, dict):
        fill = [float("nan") if dt.kind == "f" else -1] * (ncols or 0)
        for k, v in filling_values.items():
            fill[k] = v
    elif isinstance(filling_values, (list, tuple)):
        fill = list(filling_values)
    else:
        fill = [filling_values] * (ncols or 0)
    rows = []
    for r in raw:
        row = []
        for j, s in enumerate(r):
            v = parse_float(s, j)
            if v is None:
                v = fill[j]
            elif dt.kind in "iu":
                v = int(v)
            elif dt.kind == "b":
                v = bool(v)
            row.append(v)
        rows.append(row)
    if not rows:
        warnings.warn(f'genfromtxt: Empty input file: "{fname}"', UserWarning, stacklevel=2)
    return _finish(rows, ncols if ncols is not None else 0, dt, ndmin, bool(unpack), fn)


def _raise(e):
    raise e


def _row_format(fmt, ncol, delimiter, fn):
    if isinstance(fmt, bytes):
        fmt = fmt.decode("latin1")
    if isinstance(fmt, (list, tuple)):
        if len(fmt) != ncol:
            raise AttributeError(f"[mnn.numpy.{fn}] fmt has wrong shape.  {fmt!r}")
        return delimiter.join(fmt)
    if not isinstance(fmt, str):
        raise ValueError(f"[mnn.numpy.{fn}] invalid fmt: {fmt!r}")
    n = fmt.count("%") - 2 * fmt.count("%%")
    if n == 1:
        return delimiter.join([fmt] * ncol)
    if n != ncol:
        raise ValueError(f"[mnn.numpy.{fn}] fmt has wrong number of % formats:  {fmt}")
    return fmt


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="", comments="# ", encoding=None):
    """numpy.savetxt for 1-d and 2-d arrays (a 1-d array is written one value per line)."""
    fn = "savetxt"
    a = _strings_io.asarray_any(X)
    if a.ndim == 0 or a.ndim > 2:
        raise ValueError(f"[mnn.numpy.{fn}] Expected 1D or 2D array, got {a.ndim}D array instead")
    rows = a.tolist()
    if a.ndim == 1:
        rows = [[v] for v in rows]
    ncol = a.shape[1] if a.ndim == 2 else 1
    row_fmt = _row_format(fmt, ncol, delimiter, fn)
    parts = []
    if header:
        parts.append(comments + header.replace("\n", "\n" + comments) + newline)
    for r in rows:
        try:
            parts.append(row_fmt % tuple(r) + newline)
        except TypeError:
            raise TypeError(f"[mnn.numpy.{fn}] Mismatch between array dtype ('{a.dtype.name}') and format specifier "
                            f"('{row_fmt}')") from None
    if footer:
        parts.append(comments + footer.replace("\n", "\n" + comments) + newline)
    text = "".join(parts)
    if isinstance(fname, (str, os.PathLike)):
        path = os.fspath(fname)
        if path.endswith(".gz"):
            import gzip
            with gzip.open(path, "wt", encoding=encoding or "latin1") as fh:
                fh.write(text)
        else:
            with open(path, "w", encoding=encoding or "latin1", newline="") as fh:
                fh.write(text)
        return
    if not hasattr(fname, "write"):
        raise ValueError(f"[mnn.numpy.{fn}] fname must be a string or file handle")
    if isinstance(fname, io.TextIOBase):
        fname.write(text)
    else:
        try:
            fname.write(text.encode(encoding or "latin1"))
        except TypeError:
            fname.write(text)


# ------------------------------------------------------------------ raw files and bytes

def _tobytes(self, order="C"):
    if order not in ("C", "F", "A", "K", None):
        raise ValueError(f"[mnn.numpy.ndarray.tobytes] order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    # numpy reads 'K' as 'C' here; 'A' keeps a Fortran-contiguous array in its memory order
    fortran = order == "F" or (order == "A" and not _c_contiguous(self) and self.flags.f_contiguous)
    if self.size == 0:
        return b""
    src = self.T if fortran else self
    if src.dtype._code == 12:  # bfloat16: no buffer format, its bits instead
        src = bfloat16_bits(src)
    if not src._is_c_contiguous:
        src = _core.as_contiguous(src)
    return memoryview(src).cast("B").tobytes()


def _tofile(self, fid, sep="", format="%s"):
    fh, own = _open_for(fid, "wb" if not sep else "w", "ndarray.tofile")
    try:
        if not sep:
            data = _tobytes(self, "C")
            try:
                fh.write(data)
            except TypeError:
                raise TypeError("[mnn.numpy.ndarray.tofile] binary output needs a file opened in binary mode")
        else:
            flat = _core.tolist(_core.reshape(_core.as_contiguous(self), [self.size]))
            text = sep.join(format % v for v in flat)
            try:
                fh.write(text)
            except TypeError:
                fh.write(text.encode("latin1"))
    finally:
        if own:
            fh.close()


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """numpy.fromfile: raw binary elements (sep='') or separator-delimited text."""
    fn = "fromfile"
    dt = _dtypes.dtype(dtype)
    if sep and offset:
        raise TypeError(f"[mnn.numpy.{fn}] 'offset' argument only permitted for binary files")
    fh, own = _open_for(file, "rb", fn)
    try:
        if not sep:
            if offset:
                fh.seek(offset, 1)
            data = fh.read() if count < 0 else fh.read(count * dt.itemsize)
            if count < 0:
                usable = len(data) - len(data) % dt.itemsize
                data = data[:usable]
            elif len(data) < count * dt.itemsize:
                data = data[:len(data) - len(data) % dt.itemsize]
            n = len(data) // dt.itemsize
            if n == 0:
                return _core.empty([0], dt._code)
            return _core.from_buffer(memoryview(bytearray(data)), dt._code)
        text = fh.read()
        text = text.decode("latin1") if isinstance(text, bytes) else text
        items = [t for t in (text.split() if sep.strip() == "" else [x.strip() for x in text.split(sep.strip())])
                 if t != ""]
        if count >= 0:
            items = items[:count]
        vals = []
        for t in items:
            try:
                vals.append(_parse_value(t, dt.kind, fn) if dt.kind != "f" else float(t))
            except ValueError:
                warnings.warn(f"string or file could not be read to its end due to unmatched data", DeprecationWarning,
                              stacklevel=2)
                break
        return _core.from_list(vals, [len(vals)], dt._code)
    finally:
        if own:
            fh.close()


def install():
    ndarray.tobytes = _tobytes
    ndarray.tofile = _tofile
    ndarray.dump = lambda self, file: _dump(self, file)
    ndarray.dumps = lambda self: __import__("pickle").dumps(self, protocol=2)


def _dump(a, file):
    import pickle
    fh, own = _open_for(file, "wb", "ndarray.dump")
    try:
        pickle.dump(a, fh, protocol=2)
    finally:
        if own:
            fh.close()


install()
