"""First-party jaxfix rules: one module per rule, found by `jaxfix.registry` (never imported by name).

Families (the first digit of the code): 1xx mutation, 2xx control flow, 3xx masks and dynamic shapes,
4xx randomness, 5xx purity and tracing, 6xx dtypes.
"""
