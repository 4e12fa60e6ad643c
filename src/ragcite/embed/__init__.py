"""Embedders: the protocol, MiniLM on onnxruntime, the static lookup table, a cache."""
