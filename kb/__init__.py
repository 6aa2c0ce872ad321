"""kb: a knowledge base and nightly increment briefings for LLM-inference research."""

__version__ = "0.1.0"
