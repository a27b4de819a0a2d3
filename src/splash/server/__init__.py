"""The play server: rooms, seats, a WebSocket protocol, durable action logs.

:func:`splash.server.app.create_app` builds the FastAPI application from
:class:`~splash.server.settings.ServerSettings`; nothing is connected or started at import.
"""
