"""Introspection of the engine: plan cache and execution statistics, build information."""
import platform

from . import _core


def stats():
    """Counters since the last reset: evals, plan_hits, plan_misses, fused_groups, kernels_run,
    nodes_evaluated, arena_bytes / output_bytes (last plan run), peak_bytes, inplace_steps,
    last_fused_groups, last_steps (last plan run), cached_plans."""
    return _core.stats()


def reset_stats():
    _core.reset_stats()


def clear_plan_cache():
    _core.clear_plan_cache()


def set_plan_cache_capacity(n):
    _core.set_plan_cache_capacity(int(n))


def release_memory():
    """Returns the engine's cache of freed buffers to the system."""
    _core.release_cached_memory()


def info():
    """What this build runs on: the kernel ISA in use (MNN_ISA=scalar|avx2|avx512 on x86, scalar|neon on aarch64, caps it at start-up),
    the ISAs this CPU and build support, threads."""
    return {"backend": "cpu", "isa": _core.isa(), "available_isas": list(_core.available_isas()),
            "threads": _core.get_num_threads(), "machine": platform.machine(),
            "max_pending_depth": _core.MAX_PENDING_DEPTH}
