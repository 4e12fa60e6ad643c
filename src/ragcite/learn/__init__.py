"""The small learned models ragcite ships: one runtime and one file format."""
