"""estimators subpackage of bmrep."""
