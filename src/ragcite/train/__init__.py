"""Rebuilding the shipped learned models (`ragcite train`); needs scikit-learn."""
