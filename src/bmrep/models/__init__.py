"""models subpackage of bmrep."""
