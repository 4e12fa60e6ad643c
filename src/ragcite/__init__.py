"""ragcite: retrieval-augmented answers with verified citations."""

__version__ = "0.1.0"
