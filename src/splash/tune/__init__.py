"""Tuning a draft: search its parameters for settings that meet a designer's targets."""
