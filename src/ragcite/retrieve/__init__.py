"""retrieve stage."""
