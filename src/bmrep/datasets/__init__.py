"""datasets subpackage of bmrep."""
