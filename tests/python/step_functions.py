"""Step functions written against geomint.Model's vector field, for test_verify.py: geomint
runs each in a Python process of its own per case (python/verify.cpp), loading this file."""
import numpy as np


def heun(model, t, y, h):
    """Heun's method, order 2."""
    k1 = model.rhs(t, y)
    return y + h / 2 * (k1 + model.rhs(t + h, y + h * k1))


def euler(model, t, y, h):
    """Explicit Euler, order 1: the deliberately wrong integrator when declared of order 2."""
    return y + h * model.rhs(t, y)


def lie_euler(model, t, y, h):
    """Lie-Euler on the model's group action (Celledoni 2.1): order 1, on the manifold."""
    return model.exp_act(h * model.generator(t, y), y)


def fails(model, t, y, h):
    raise RuntimeError("this step function fails on purpose")


def not_finite(model, t, y, h):
    return y * np.nan
