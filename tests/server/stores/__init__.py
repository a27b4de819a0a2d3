"""Stores frozen from earlier versions, and the script that makes them (``freeze.py``)."""
