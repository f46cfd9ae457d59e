"""sampling subpackage of bmrep."""
