"""The house style of every figure (``style``); a paper's own figures are in ``bmrep/papers/<paper>/plots.py``."""
