"""meanfield subpackage of bmrep."""
