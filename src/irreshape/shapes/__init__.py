"""The shape engine: pure functions on dims (no XML, no I/O)."""
