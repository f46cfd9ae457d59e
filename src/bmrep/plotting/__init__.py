"""plotting subpackage of bmrep."""
