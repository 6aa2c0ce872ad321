"""Ingest: the one bracket that runs a source, the public sources, the workspace, bulk files, ID resolution."""
