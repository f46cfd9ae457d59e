"""Helpers the tests share (not tests): the test systems, the layer map, config sections."""
