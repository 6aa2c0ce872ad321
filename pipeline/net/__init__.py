"""The HTTP client and the arXiv API client."""
