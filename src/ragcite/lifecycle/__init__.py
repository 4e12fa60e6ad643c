"""After the answer: saved answers, re-checking them, erasure, and feedback reports."""
