"""Shengji (tractor) and ZPY (finding friends)."""
