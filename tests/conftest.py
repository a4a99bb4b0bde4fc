import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

from hypothesis import settings  # noqa: E402

# The default ("ci", what the README's test command and `.ci/run` use) keeps example counts and compilations in
# check and is derandomized: no flakes, the same inputs every run. `HYPOTHESIS_PROFILE=dev` draws fresh inputs each
# run, `HYPOTHESIS_PROFILE=thorough` explores far more (both locally, to look for new failures).
settings.register_profile("ci", max_examples=8, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", max_examples=20, deadline=None, print_blob=True)
settings.register_profile("thorough", max_examples=300, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
