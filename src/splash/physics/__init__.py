"""The MuJoCo outcome provider of Splash! placements: model, placement, ruling, pictures."""
