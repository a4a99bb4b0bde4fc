"""Test helpers shared by jaxfix's own tests and by authors of rule plugins: embedded-example checks, fixture
discovery and migration, and the behavioural harness (NumPy original vs `jax.jit` rewrite)."""
