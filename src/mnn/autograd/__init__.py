"""Reverse-mode autograd on the engine's graph.

Ops on arrays that require gradients record a tape (GradNodes, in C++). backward() walks it in
reverse topological order and applies each primitive's vjp (vjps.py). The vjps are written with
mnn.numpy ops, so gradient computation is itself lazy graph work: fused, planned and cached like
forward work, and a training loop that repeats the same step reuses its plans.
"""
import contextlib
import functools

from .. import _core


class _GradMode(contextlib.ContextDecorator):
    def __init__(self, enabled):
        self.enabled = enabled

    def __enter__(self):
        self.prev = _core.grad_enabled()
        _core.set_grad_enabled(self.enabled)
        return self

    def __exit__(self, *exc):
        _core.set_grad_enabled(self.prev)
        return False


def no_grad():
    """Context manager / decorator: ops inside record no gradients (optimizer updates, evaluation)."""
    return _GradMode(False)


def enable_grad():
    return _GradMode(True)


def is_grad_enabled():
    return _core.grad_enabled()


def backward(output, gradient=None):
    """Accumulates d(output)/d(leaf) * gradient into every leaf's .grad."""
    from . import vjps
    import mnn.numpy as np

    meta = output._autograd
    if meta is None or not (meta.requires_grad or meta.grad_fn is not None):
        raise RuntimeError("[mnn.autograd.backward] element 0 of tensors does not require grad and does not have "
                           "a grad_fn")
    if gradient is None:
        if output.size != 1:
            raise RuntimeError("[mnn.autograd.backward] grad can be implicitly created only for scalar outputs")
        gradient = np.ones(output.shape, dtype=output.dtype)
    else:
        gradient = np.asarray(gradient)
        if tuple(gradient.shape) != tuple(output.shape):
            raise RuntimeError(f"[mnn.autograd.backward] Mismatch in shape: gradient has shape {tuple(gradient.shape)} "
                               f"and output has shape {tuple(output.shape)}")
        if gradient.dtype != output.dtype:
            gradient = gradient.astype(output.dtype)
    with no_grad():
        if meta.grad_fn is None:
            _accumulate_leaf(meta, gradient)
            return
        order = _topological(meta.grad_fn)
        cot = {meta.grad_fn._id: gradient}
        for node in order:
            g = cot.pop(node._id, None)
            if g is None:
                continue
            inputs = node.inputs
            grads = vjps.vjp(node, inputs, g)
            for x, m, gx in zip(inputs, node.input_meta, grads):
                if m is None or gx is None:
                    continue
                gx = vjps.unbroadcast(gx, x.shape)
                if gx.dtype != x.dtype:
                    gx = gx.astype(x.dtype)
                if m.grad_fn is not None:
                    k = m.grad_fn._id
                    cot[k] = cot[k] + gx if k in cot else gx
                elif m.requires_grad:
                    _accumulate_leaf(m, gx)


def _accumulate_leaf(meta, g):
    meta.grad = g if meta.grad is None else meta.grad + g


def _topological(root):
    """GradNodes reachable from root, each before all of its inputs' nodes."""
    seen, post = set(), []
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        if done:
            post.append(node)
            continue
        if node._id in seen:
            continue
        seen.add(node._id)
        stack.append((node, True))
        for m in node.input_meta:
            if m is not None and m.grad_fn is not None and m.grad_fn._id not in seen:
                stack.append((m.grad_fn, False))
    return post[::-1]


def _argnums_tuple(argnums):
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def value_and_grad(fun, argnums=0):
    """Returns a function computing (fun(*args), gradients of fun w.r.t. args[argnums])."""
    nums = _argnums_tuple(argnums)

    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        import mnn.numpy as np
        args = list(args)
        for i in nums:
            x = np.asarray(args[i])
            if x.dtype.kind != "f":
                raise TypeError(f"[mnn.grad] argument {i} must be a floating point array, got {x.dtype}")
            x = x.detach()
            x.requires_grad = True
            args[i] = x
        with enable_grad():
            value = fun(*args, **kwargs)
        if not isinstance(value, np.ndarray) or value.size != 1:
            raise TypeError("[mnn.grad] the function must return a scalar array")
        if value._autograd is not None:
            backward(value)
        grads = tuple(args[i].grad if args[i].grad is not None else np.zeros_like(args[i]) for i in nums)
        return value.detach(), grads[0] if isinstance(argnums, int) else grads

    return wrapped


def grad(fun, argnums=0):
    """Returns a function computing the gradient of scalar-valued fun w.r.t. args[argnums]."""
    vg = value_and_grad(fun, argnums)

    @functools.wraps(fun)
    def wrapped(*args, **kwargs):
        return vg(*args, **kwargs)[1]

    return wrapped
