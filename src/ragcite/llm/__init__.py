"""Language-model clients: HTTP plumbing, completion clients and the one spec parser."""
