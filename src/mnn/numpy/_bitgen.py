"""numpy's bit generators for mnn.numpy.random: SeedSequence, MT19937 and PCG64.

SeedSequence follows numpy's documented design (O'Neill's seed_seq hash-mixing entropy pool, as
in randomgen): the entropy (an int or a sequence of ints, each split into 32-bit words, least
significant first) and the spawn key are hashed into a pool of 4 words; generate_state hashes the
pool cyclically into as many words as asked. The generators' arithmetic lives in native code
(csrc/ops/random/bitgen.h); these classes own a native state and speak numpy's state formats.
"""
import operator
import secrets

from .. import _core
from . import _dtypes

_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R, _XSHIFT = 0xCA01F9DD, 0x4973F715, 16
_U32 = _dtypes.dtype("uint32")
_U64 = _dtypes.dtype("uint64")


def _int_words(x, fn):
    """A non-negative int as 32-bit words, least significant first (0 is one word)."""
    if x < 0:
        raise ValueError(f"[mnn.numpy.random.{fn}] expected non-negative integer")
    words = [x & _M32]
    x >>= 32
    while x:
        words.append(x & _M32)
        x >>= 32
    return words


def _entropy_words(x, fn):
    from ._common import ndarray
    if x is None:
        return []
    if isinstance(x, (str, bytes, float, complex)) or (isinstance(x, ndarray) and x.dtype.kind not in "iub"):
        raise TypeError(f"[mnn.numpy.random.{fn}] SeedSequence expects int or sequence of ints for entropy not {x!r}")
    if isinstance(x, ndarray):
        x = x.tolist()
    if isinstance(x, (list, tuple, range)):
        out = []
        for v in x:
            out.extend(_entropy_words(v, fn))
        return out
    try:
        return _int_words(operator.index(x), fn)
    except TypeError:
        raise TypeError(f"[mnn.numpy.random.{fn}] SeedSequence expects int or sequence of ints for entropy not "
                        f"{x!r}") from None


class _Hash:
    """The multiplier-stepping hash (hashmix) shared by the pool's mixing rounds."""

    def __init__(self):
        self.const = _INIT_A

    def __call__(self, value):
        value = (value ^ self.const) & _M32
        self.const = (self.const * _MULT_A) & _M32
        value = (value * self.const) & _M32
        return value ^ (value >> _XSHIFT)


def _mix(x, y):
    r = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _M32
    return r ^ (r >> _XSHIFT)


class SeedSequence:
    """numpy.random.SeedSequence: entropy (None: 128 bits from the OS) mixed into a 4-word pool."""

    def __init__(self, entropy=None, *, spawn_key=(), pool_size=4, n_children_spawned=0):
        if pool_size < 4:
            raise ValueError(f"[mnn.numpy.random.SeedSequence] The size of the entropy pool should be at least 4; "
                             f"got {pool_size}")
        if entropy is None:
            entropy = secrets.randbits(128)
        self.entropy = entropy
        self.spawn_key = tuple(spawn_key)
        self.pool_size = pool_size
        self.n_children_spawned = n_children_spawned
        run = _entropy_words(entropy, "SeedSequence")
        spawn = _entropy_words(list(self.spawn_key), "SeedSequence")
        if spawn and len(run) < pool_size:
            run = run + [0] * (pool_size - len(run))
        self.pool = self._mix_entropy(run + spawn)

    def _mix_entropy(self, words):
        h = _Hash()
        n = self.pool_size
        pool = [h(words[i] if i < len(words) else 0) for i in range(n)]
        for src in range(n):
            for dst in range(n):
                if src != dst:
                    pool[dst] = _mix(pool[dst], h(pool[src]))
        for src in range(n, len(words)):
            for dst in range(n):
                pool[dst] = _mix(pool[dst], h(words[src]))
        return pool

    def _words(self, n32):
        const = _INIT_B
        out = []
        for i in range(n32):
            v = self.pool[i % self.pool_size] ^ const
            const = (const * _MULT_B) & _M32
            v = (v * const) & _M32
            out.append(v ^ (v >> _XSHIFT))
        return out

    def _words64(self, n64):
        w = self._words(2 * n64)
        return [w[2 * i] | (w[2 * i + 1] << 32) for i in range(n64)]

    def generate_state(self, n_words, dtype="uint32"):
        dt = _dtypes.dtype(dtype)
        n = operator.index(n_words)
        if dt == _U32:
            vals = self._words(n)
        elif dt == _U64:
            vals = self._words64(n)
        else:
            raise TypeError(f"[mnn.numpy.random.SeedSequence.generate_state] only support uint32 or uint64")
        from ._creation import asarray
        return asarray(vals, dtype=dt)

    def spawn(self, n_children):
        kids = [SeedSequence(self.entropy, spawn_key=self.spawn_key + (i,), pool_size=self.pool_size)
                for i in range(self.n_children_spawned, self.n_children_spawned + n_children)]
        self.n_children_spawned += n_children
        return kids

    @property
    def state(self):
        return {"entropy": self.entropy, "spawn_key": self.spawn_key, "pool_size": self.pool_size,
                "n_children_spawned": self.n_children_spawned}

    def __repr__(self):
        return f"SeedSequence(entropy={self.entropy!r}, spawn_key={self.spawn_key!r}, pool_size={self.pool_size})"


def _seed_sequence(seed, fn):
    if isinstance(seed, SeedSequence):
        return seed
    if seed is not None:
        _entropy_words(seed, fn)  # validate now, with fn's name
    return SeedSequence(seed)


class BitGenerator:
    """Base of MT19937 and PCG64: a native state plus the SeedSequence it came from."""

    def __init__(self, seed=None):
        self._seed_seq = _seed_sequence(seed, type(self).__name__)
        self._seed_from(self._seed_seq)

    @property
    def seed_seq(self):
        return self._seed_seq

    def random_raw(self, size=None, output=True):
        if size is None:
            return self._st.next64()
        from ._creation import asarray
        n = 1
        for s in ((size,) if isinstance(size, int) else size):
            n *= s
        vals = [self._st.next64() for _ in range(n)]
        return asarray(vals, dtype=_U64).reshape(size) if output else None

    def spawn(self, n_children):
        return [type(self)(s) for s in self._seed_seq.spawn(n_children)]

    def __repr__(self):
        return f"{type(self).__name__}"


class PCG64(BitGenerator):
    """numpy.random.PCG64: 128-bit LCG with XSL-RR output, seeded by SeedSequence.generate_state(4, uint64)."""

    def _seed_from(self, ss):
        if getattr(self, "_st", None) is None:  # reseeding keeps the state object its users hold
            self._st = _core.PCG64State()
        s_hi, s_lo, i_hi, i_lo = ss._words64(4)
        self._st.seed(s_hi, s_lo, i_hi, i_lo)

    @property
    def state(self):
        s_hi, s_lo, i_hi, i_lo, has32, u32 = self._st.get()
        return {"bit_generator": "PCG64", "state": {"state": (s_hi << 64) | s_lo, "inc": (i_hi << 64) | i_lo},
                "has_uint32": has32, "uinteger": u32}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict) or value.get("bit_generator") != "PCG64":
            raise ValueError("[mnn.numpy.random.PCG64.state] state must be a dict for a PCG64 state")
        st, inc = value["state"]["state"], value["state"]["inc"]
        m64 = (1 << 64) - 1
        self._st.set(st >> 64, st & m64, inc >> 64, inc & m64, int(value.get("has_uint32", 0)),
                     int(value.get("uinteger", 0)))

    def advance(self, delta):
        d = operator.index(delta) % (1 << 128)
        self._st.advance(d >> 64, d & ((1 << 64) - 1))
        # numpy drops the buffered half word when it jumps
        s = self.state
        s["has_uint32"], s["uinteger"] = 0, 0
        self.state = s
        return self

    def jumped(self, jumps=1):
        """A copy advanced by jumps * (the golden ratio's fraction of 2**128): numpy's jump."""
        child = PCG64.__new__(PCG64)
        child._seed_seq = self._seed_seq
        child._st = _core.PCG64State()
        child.state = self.state
        child.advance(0x9E3779B97F4A7C15F39CC0605CEDC835 * operator.index(jumps))
        return child


class MT19937(BitGenerator):
    """numpy.random.MT19937: seeded from SeedSequence words (key[0] forced non-zero), or legacy seeding."""

    def _seed_from(self, ss):
        if getattr(self, "_st", None) is None:  # reseeding keeps the state object its users hold
            self._st = _core.MT19937State()
        words = ss._words(624)
        words[0] = 0x80000000
        self._st.set_key(words, 623)  # numpy leaves pos at 623: the first draw reads key[623] as is

    def _legacy_seeding(self, seed):
        """RandomState.seed: an int in [0, 2**32) -> init_genrand; a 1-d int sequence -> init_by_array."""
        fn = "seed"
        from ._common import ndarray
        if seed is None:
            self._seed_seq = SeedSequence()
            self._seed_from(self._seed_seq)
            self._st.has_gauss, self._st.gauss = 0, 0.0
            return
        if isinstance(seed, ndarray) and seed.ndim == 0:
            seed = seed.tolist()
        if isinstance(seed, float) or (isinstance(seed, ndarray) and seed.dtype.kind == "f"):
            raise TypeError(f"[mnn.numpy.random.{fn}] Cannot cast scalar from dtype('float64') to dtype('int64') "
                            f"according to the rule 'safe'")
        try:
            idx = operator.index(seed)
        except TypeError:
            words = seed.tolist() if isinstance(seed, ndarray) else list(seed)
            if not words:
                raise ValueError(f"[mnn.numpy.random.{fn}] Seed must be non-empty") from None
            vals = []
            for w in words:
                if isinstance(w, (list, tuple)):
                    raise ValueError(f"[mnn.numpy.random.{fn}] Seed array must be 1-d") from None
                if isinstance(w, float):
                    raise TypeError(f"[mnn.numpy.random.{fn}] Cannot cast array data from dtype('float64') to "
                                    f"dtype('int64') according to the rule 'safe'") from None
                w = operator.index(w)
                if not 0 <= w <= _M32:
                    raise ValueError(f"[mnn.numpy.random.{fn}] Seed must be between 0 and 2**32 - 1") from None
                vals.append(w)
            self._st.init_by_array(vals)
        else:
            if not 0 <= idx <= _M32:
                raise ValueError(f"[mnn.numpy.random.{fn}] Seed must be between 0 and 2**32 - 1")
            self._st.seed(idx)
        self._st.has_gauss, self._st.gauss = 0, 0.0

    @property
    def state(self):
        from ._creation import asarray
        return {"bit_generator": "MT19937", "state": {"key": asarray(self._st.get_key(), dtype=_U32),
                                                      "pos": self._st.pos}}

    @state.setter
    def state(self, value):
        if isinstance(value, (tuple, list)):
            if value[0] != "MT19937":
                raise ValueError("[mnn.numpy.random.MT19937.state] state must be for a MT19937 PRNG")
            key, pos = value[1], value[2]
        else:
            if not isinstance(value, dict) or value.get("bit_generator") != "MT19937":
                raise ValueError("[mnn.numpy.random.MT19937.state] state must be for a MT19937 PRNG")
            key, pos = value["state"]["key"], value["state"]["pos"]
        self._st.set_key([int(k) for k in _tolist(key)], int(pos))


def _tolist(x):
    return x.tolist() if hasattr(x, "tolist") else list(x)
