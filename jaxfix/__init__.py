"""jaxfix: rewrite NumPy-style Python into JAX-safe Python, keeping formatting and comments."""

__version__ = "0.1.0"
