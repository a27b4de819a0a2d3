"""Splash! and Splash & Bash as software: rules engines, referee, simulation and play."""
