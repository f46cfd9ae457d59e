"""learning subpackage of bmrep."""
