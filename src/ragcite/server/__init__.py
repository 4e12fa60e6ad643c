"""The HTTP API and the web page (needs the `server` extra: pip install 'ragcite[server]')."""
