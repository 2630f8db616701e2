"""mnn.numpy.random reproduces numpy's seeded streams bit for bit: SeedSequence, PCG64 and MT19937
states, Generator's core draws (uniform, ziggurat normal/exponential in both float widths, Lemire
integers, choice, permutation, shuffle) and RandomState's legacy ones (53-bit doubles, polar
Gaussian with its cached value, masked integers, choice, shuffle), for many seeds, sizes, dtypes and
thread counts, and state round trips in numpy's formats."""
import numpy
import pytest

import mnn
import mnn.numpy as mnp

SEEDS = [0, 1, 42, 2**32 + 5, [1, 2, 3], 2**100 + 7, [0], [2**32 - 1, 7, 2**40]]
SIZES = [0, 1, 7, 1001]


def same(got, want):
    """Bit equality (dtype, shape and every value)."""
    want = numpy.asarray(want)
    got = numpy.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.tobytes() == want.tobytes(), (got.ravel()[:5], want.ravel()[:5])


def pair(seed):
    return mnp.random.default_rng(seed), numpy.random.default_rng(seed)


# ------------------------------------------------------------------ seeding and states

@pytest.mark.parametrize("seed", SEEDS)
def test_seed_sequence_pool_and_words(seed):
    m, n = mnp.random.SeedSequence(seed), numpy.random.SeedSequence(seed)
    assert m.pool == [int(v) for v in n.pool]
    same(m.generate_state(9), n.generate_state(9))
    same(m.generate_state(5, "uint64"), n.generate_state(5, numpy.uint64))
    for mk, nk in zip(m.spawn(3), n.spawn(3)):
        assert mk.pool == [int(v) for v in nk.pool] and mk.spawn_key == nk.spawn_key


def test_seed_sequence_from_array_and_os_entropy():
    arr = numpy.array([3, 2**33, 5], dtype=numpy.int64)
    assert mnp.random.SeedSequence(mnp.asarray(arr)).pool == [int(v) for v in numpy.random.SeedSequence(arr).pool]
    ss = mnp.random.SeedSequence()  # 128 bits of OS entropy: reproducible through its entropy
    assert ss.pool == [int(v) for v in numpy.random.SeedSequence(ss.entropy).pool]
    with pytest.raises(ValueError):
        mnp.random.SeedSequence(-1)
    with pytest.raises(TypeError):
        mnp.random.SeedSequence(1.5)


@pytest.mark.parametrize("seed", SEEDS)
def test_bit_generator_states(seed):
    assert mnp.random.PCG64(seed).state == numpy.random.PCG64(seed).state
    ms, ns = mnp.random.MT19937(seed).state, numpy.random.MT19937(seed).state
    assert ms["state"]["pos"] == ns["state"]["pos"]
    same(ms["state"]["key"], ns["state"]["key"])
    same(mnp.random.PCG64(seed).random_raw(6), numpy.random.PCG64(seed).random_raw(6))
    g, h = mnp.random.Generator(mnp.random.MT19937(seed)), numpy.random.Generator(numpy.random.MT19937(seed))
    same(g.random(9), h.random(9))
    same(g.standard_normal(9), h.standard_normal(9))


def test_generator_state_round_trip_and_numpy_interop():
    g, h = pair(7)
    g.standard_normal(3, dtype="float32")  # leaves a buffered half word in the state
    h.standard_normal(3, dtype=numpy.float32)
    assert g.bit_generator.state == h.bit_generator.state
    saved = g.bit_generator.state
    first = numpy.asarray(g.integers(0, 1000, 50, dtype="int16"))
    g.bit_generator.state = saved
    same(g.integers(0, 1000, 50, dtype="int16"), first)
    g.bit_generator.state = h.bit_generator.state  # numpy's dict drives mnn's generator
    same(g.random(5), h.random(5))
    pg, pn = mnp.random.PCG64(3), numpy.random.PCG64(3)
    pg.advance(12345)
    pn.advance(12345)
    assert pg.state == pn.state
    assert pg.jumped(3).state == pn.jumped(3).state


# ------------------------------------------------------------------ Generator streams

@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("size", SIZES)
def test_generator_float_streams(seed, size):
    g, h = pair(seed)
    same(g.random(size), h.random(size))
    same(g.random(size, dtype="float32"), h.random(size, dtype=numpy.float32))
    same(g.standard_normal(size), h.standard_normal(size))
    same(g.standard_normal(size, dtype="float32"), h.standard_normal(size, dtype=numpy.float32))
    same(g.standard_exponential(size), h.standard_exponential(size))
    same(g.standard_exponential(size, dtype="float32"), h.standard_exponential(size, dtype=numpy.float32))
    same(g.standard_exponential(size, method="inv"), h.standard_exponential(size, method="inv"))
    same(g.standard_exponential(size, dtype="float32", method="inv"),
         h.standard_exponential(size, dtype=numpy.float32, method="inv"))
    same(g.normal(1.5, 3.0, size), h.normal(1.5, 3.0, size))
    same(g.exponential(2.5, size), h.exponential(2.5, size))
    same(g.uniform(-2, 5, size), h.uniform(-2, 5, size))
    assert g.random() == h.random()  # scalars, and the streams are still in step
    assert g.bit_generator.state == h.bit_generator.state


@pytest.mark.parametrize("method,dtype", [("standard_normal", "float64"), ("standard_normal", "float32"),
                                          ("standard_exponential", "float64"),
                                          ("standard_exponential", "float32")])
def test_ziggurats_over_a_million_draws(method, dtype):
    # Every layer, the wedges and the tails of numpy's 256-level ziggurats.
    for seed in (3, 2024):
        g, h = pair(seed)
        same(getattr(g, method)(1_000_000, dtype=dtype), getattr(h, method)(1_000_000, dtype=numpy.dtype(dtype)))


def test_normal_broadcast_parameters():
    g, h = pair(5)
    loc, scale = numpy.arange(6.0).reshape(2, 3), numpy.array([1.0, 2.0, 0.5])
    same(g.normal(mnp.asarray(loc), mnp.asarray(scale)), h.normal(loc, scale))
    same(g.uniform(mnp.asarray(loc), 10.0, size=(4, 2, 3)), h.uniform(loc, 10.0, size=(4, 2, 3)))


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8", "bool"])
@pytest.mark.parametrize("endpoint", [False, True])
def test_generator_integers(dtype, endpoint):
    info = numpy.iinfo(dtype) if dtype != "bool" else None
    # inclusive [lo, hi]; numpy takes high = hi + 1 unless endpoint
    ranges = [(0, 0), (0, 1), (1, 1)] if dtype == "bool" else \
        [(0, 10), (0, 1), (5, 5), (info.min, info.max), (0, 2**7 - 1), (-3 if info.min < 0 else 3, 100)]
    if dtype in ("int64", "uint64"):
        ranges += [(0, 2**32 - 1), (0, 2**32), (0, 2**40 + 3)]
    for seed in (0, 42):
        g, h = pair(seed)
        for lo, hi in ranges:
            top = hi if endpoint else hi + 1
            for size in (0, 1, 257):
                same(g.integers(lo, top, size, dtype=dtype, endpoint=endpoint),
                     h.integers(lo, top, size, dtype=dtype, endpoint=endpoint))
        assert g.bit_generator.state == h.bit_generator.state


def test_generator_integers_scalar_and_array_bounds():
    g, h = pair(11)
    assert int(g.integers(5)) == int(h.integers(5))
    assert int(g.integers(-7, 2**40)) == int(h.integers(-7, 2**40))
    highs = numpy.array([[3, 10, 2**35], [1, 7, 100]])
    same(g.integers(0, mnp.asarray(highs)), h.integers(0, highs))
    same(g.integers(mnp.asarray([1, 2, 3]), 50, size=(2, 3)), h.integers([1, 2, 3], 50, size=(2, 3)))
    for dtype in ("int32", "int16", "uint8", "int8", "bool"):
        top = 2 if dtype == "bool" else 100
        lows = numpy.array([0, 1, 0, 1, 0]) if dtype == "bool" else numpy.array([0, 5, -3 if dtype[0] == "i" else 3, 99])
        same(g.integers(mnp.asarray(lows), top, dtype=dtype), h.integers(lows, top, dtype=dtype))
        same(g.integers(0, mnp.asarray(numpy.abs(lows) + 1), size=(3, lows.size), dtype=dtype),
             h.integers(0, numpy.abs(lows) + 1, size=(3, lows.size), dtype=dtype))
    rs, rn = mnp.random.RandomState(4), numpy.random.RandomState(4)
    for dtype in ("int64", "int32", "int16", "uint8"):
        same(rs.randint(0, mnp.asarray([3, 50, 2, 90]), dtype=dtype), rn.randint(0, [3, 50, 2, 90], dtype=dtype))
    assert g.bit_generator.state == h.bit_generator.state


def test_generator_choice_permutation_shuffle():
    for seed in (0, 1, 42):
        g, h = pair(seed)
        same(g.choice(10, 20), h.choice(10, 20))
        assert int(g.choice(10)) == int(h.choice(10))
        same(g.choice(1000, 30, replace=False), h.choice(1000, 30, replace=False))
        same(g.choice(1000, 30, replace=False, shuffle=False), h.choice(1000, 30, replace=False, shuffle=False))
        same(g.choice(20000, 5000, replace=False), h.choice(20000, 5000, replace=False))  # tail-shuffle path
        p = [0.1, 0.2, 0.3, 0.25, 0.15]
        same(g.choice(5, (3, 4), p=p), h.choice(5, (3, 4), p=p))
        same(g.choice(5, 3, replace=False, p=p), h.choice(5, 3, replace=False, p=p))
        arr = numpy.arange(24.0).reshape(6, 4)
        same(g.choice(mnp.asarray(arr), 3), h.choice(arr, 3))
        same(g.choice(mnp.asarray(arr), 2, axis=1, replace=False), h.choice(arr, 2, axis=1, replace=False))
        same(g.permutation(17), h.permutation(17))
        same(g.permutation(mnp.asarray(arr)), h.permutation(arr))
        same(g.permutation(mnp.asarray(arr), axis=1), h.permutation(arr, axis=1))
        x, y = mnp.asarray(arr), arr.copy()
        g.shuffle(x)
        h.shuffle(y)
        same(x, y)
        lx, ly = list(range(12)), list(range(12))
        g.shuffle(lx)
        h.shuffle(ly)
        assert lx == ly
        assert g.bytes(13) == h.bytes(13)
        assert g.bit_generator.state == h.bit_generator.state


def test_thread_count_does_not_change_streams():
    old = mnn.get_num_threads()
    try:
        outs = []
        for t in (1, 2):
            mnn.set_num_threads(t)
            g = mnp.random.default_rng(99)
            outs.append((numpy.asarray(g.random(300_001)), numpy.asarray(g.standard_normal(1001)),
                         g.bit_generator.state))
        h = numpy.random.default_rng(99)
        want = (h.random(300_001), h.standard_normal(1001))
        for r, z, st in outs:
            same(r, want[0])
            same(z, want[1])
            assert st == h.bit_generator.state
    finally:
        mnn.set_num_threads(old)


# ------------------------------------------------------------------ legacy RandomState

LEGACY_SEEDS = [0, 1, 42, 2**32 - 1, [1, 2, 3], [0], [2**32 - 1] * 700]


@pytest.mark.parametrize("seed", LEGACY_SEEDS)
def test_legacy_streams(seed):
    mnp.random.seed(seed)
    numpy.random.seed(seed)
    for size in SIZES:
        same(mnp.random.random_sample(size), numpy.random.random_sample(size))
        same(mnp.random.randn(size), numpy.random.randn(size))  # odd sizes leave a cached Gaussian
        same(mnp.random.standard_normal((2, size)), numpy.random.standard_normal((2, size)))
        same(mnp.random.normal(2.0, 0.5, size), numpy.random.normal(2.0, 0.5, size))
        same(mnp.random.uniform(-1, 4, size), numpy.random.uniform(-1, 4, size))
        same(mnp.random.standard_exponential(size), numpy.random.standard_exponential(size))
        same(mnp.random.exponential(3.0, size), numpy.random.exponential(3.0, size))
        same(mnp.random.randint(0, 100, size), numpy.random.randint(0, 100, size))
        same(mnp.random.randint(-5, 2**40, size), numpy.random.randint(-5, 2**40, size))
    same(mnp.random.rand(3, 4), numpy.random.rand(3, 4))
    assert mnp.random.rand() == numpy.random.rand()
    assert mnp.random.randn() == numpy.random.randn()
    assert mnp.random.randint(10) == numpy.random.randint(10)
    for name in ("random", "ranf", "sample"):
        same(getattr(mnp.random, name)(5), getattr(numpy.random, name)(5))
    m_state, n_state = mnp.random.get_state(), numpy.random.get_state()
    assert m_state[0] == n_state[0] and m_state[2:] == n_state[2:]
    same(m_state[1], n_state[1])


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8", "bool"])
def test_legacy_randint_dtypes(dtype):
    hi = 2 if dtype == "bool" else 100
    for seed in (0, 7):
        rs, rn = mnp.random.RandomState(seed), numpy.random.RandomState(seed)
        for size in (0, 1, 9, 300):
            same(rs.randint(0, hi, size, dtype=dtype), rn.randint(0, hi, size, dtype=dtype))
        if dtype != "bool":
            info = numpy.iinfo(dtype)
            same(rs.randint(info.min, info.max, 50, dtype=dtype), rn.randint(info.min, info.max, 50, dtype=dtype))
        same(rs.random_sample(3), rn.random_sample(3))


def test_legacy_choice_shuffle_permutation():
    for seed in (0, 3, 42):
        rs, rn = mnp.random.RandomState(seed), numpy.random.RandomState(seed)
        same(rs.choice(10, 20), rn.choice(10, 20))
        assert rs.choice(10) == rn.choice(10)
        same(rs.choice(100, 10, replace=False), rn.choice(100, 10, replace=False))
        p = [0.1, 0.2, 0.3, 0.25, 0.15]
        same(rs.choice(5, (2, 5), p=p), rn.choice(5, (2, 5), p=p))
        same(rs.choice(5, 4, replace=False, p=p), rn.choice(5, 4, replace=False, p=p))
        same(rs.choice(mnp.asarray([1.5, 2.5, 3.5]), 4), rn.choice([1.5, 2.5, 3.5], 4))
        same(rs.permutation(33), rn.permutation(33))
        arr = numpy.arange(20).reshape(5, 4)
        same(rs.permutation(mnp.asarray(arr)), rn.permutation(arr))
        x, y = mnp.asarray(arr), arr.copy()
        rs.shuffle(x)
        rn.shuffle(y)
        same(x, y)
        lx, ly = list("abcdefghij"), list("abcdefghij")
        rs.shuffle(lx)
        rn.shuffle(ly)
        assert lx == ly
        assert rs.bytes(10) == rn.bytes(10)
        same(rs.rand(4), rn.rand(4))


def test_legacy_state_round_trip_and_numpy_interop():
    rs, rn = mnp.random.RandomState(5), numpy.random.RandomState(5)
    rs.randn(3)  # odd: a Gaussian is cached in the state
    rn.randn(3)
    st = rs.get_state()
    assert st[3] == 1 and st[4] == rn.get_state()[4]
    after = numpy.asarray(rs.randn(4))
    rs.set_state(st)
    same(rs.randn(4), after)
    rs.set_state(rn.get_state())  # numpy's tuple, key as a numpy array
    same(rs.randn(5), rn.randn(5))
    d = rs.get_state(legacy=False)
    assert d["bit_generator"] == "MT19937" and "has_gauss" in d
    rn.set_state(tuple(numpy.asarray(v) if i == 1 else v for i, v in enumerate(rs.get_state())))
    same(rs.random_sample(7), rn.random_sample(7))


def test_legacy_seed_errors_match_numpy():
    for bad in (2**32, -1):
        with pytest.raises(ValueError):
            mnp.random.seed(bad)
        with pytest.raises(ValueError):
            numpy.random.seed(bad)
    with pytest.raises(TypeError):
        mnp.random.seed(1.5)
    with pytest.raises(ValueError):
        mnp.random.seed([])
    mnp.random.seed(None)  # OS entropy: just has to work
    assert 0 <= mnp.random.rand() < 1
    mnp.random.seed(1234)  # and re-seeding afterwards still drives the module functions
    numpy.random.seed(1234)
    same(mnp.random.rand(3), numpy.random.rand(3))
