"""The web pages of the play server (static files served from ``static/``)."""
