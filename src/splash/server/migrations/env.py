"""Alembic's environment: the migrations run on the connection (and in the transaction)
that :func:`splash.server.migrate.upgrade_store` gives, or on ``sqlalchemy.url`` when the
``alembic`` command runs them by hand."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from splash.server.storage import make_engine, metadata

config = context.config
version_table = str(config.attributes.get("version_table", "splash_schema_version"))


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        version_table=version_table,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


given = config.attributes.get("connection")
if isinstance(given, Connection):
    _run(given)
elif context.is_offline_mode():
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=metadata,
        version_table=version_table,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    engine = make_engine(str(config.get_main_option("sqlalchemy.url")))
    with engine.begin() as conn:
        _run(conn)
    engine.dispose()
