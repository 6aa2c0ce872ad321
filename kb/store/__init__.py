"""kb's SQLite store: schema, migrations, writes (SQLAlchemy Core) and reads (DB-API)."""
from kb.store.db import Store, latest_schema

__all__ = ["Store", "latest_schema"]
