"""Analyses: LibCST metadata providers that annotate the tree and never edit it.

Rules list the providers they read in `METADATA_DEPENDENCIES` and call `self.get_metadata(Provider, node)`.
"""
