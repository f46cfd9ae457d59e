"""diagnostics subpackage of bmrep."""
