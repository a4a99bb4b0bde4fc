import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

from hypothesis import settings  # noqa: E402

# CI keeps example counts and compilations in check and is derandomized (no flakes, same inputs every run);
# `HYPOTHESIS_PROFILE=thorough` explores far more locally.
settings.register_profile("ci", max_examples=8, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", max_examples=20, deadline=None, print_blob=True)
settings.register_profile("thorough", max_examples=300, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
