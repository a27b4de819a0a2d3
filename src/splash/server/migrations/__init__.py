"""The Alembic migrations of the play server's store (:mod:`splash.server.migrate` runs
them): ``env.py`` and one script a revision under ``versions/``."""
