"""experiments subpackage of bmrep."""
