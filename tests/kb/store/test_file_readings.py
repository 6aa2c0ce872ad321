"""A team file's reading in the store: its hash, and the stat kb keeps to know it unchanged without reading it
(``kb.store.notes.file_readings``, ``record_stat_keys``), on both backends."""
from __future__ import annotations

from kb.store import Store
from kb.store.notes import file_readings, record_file, record_stat_keys


def test_stat_keys_are_kept_and_replaced_without_touching_the_reading(store: Store) -> None:
    with store.transaction() as tx:
        record_file(tx, "inbox/a/2026-10-08-x.md", "note", "h1", ["a problem"], stat_key="1:10:5:5")
        record_file(tx, "inbox/a/2026-10-08-y.md", "note", "h2", [])   # another writer: no stat, read next time
    assert file_readings(store) == {"inbox/a/2026-10-08-x.md": ("h1", "1:10:5:5"),
                                    "inbox/a/2026-10-08-y.md": ("h2", None)}
    many = {f"inbox/b/2026-10-{n:02d}-z.md": f"{n}:1:2:3" for n in range(1, 28)}
    with store.transaction() as tx:
        for path in many:
            record_file(tx, path, "note", "h", [])
    record_stat_keys(store, {"inbox/a/2026-10-08-x.md": None, "inbox/a/2026-10-08-y.md": "2:20:6:6", **many})
    readings = file_readings(store)
    assert readings["inbox/a/2026-10-08-x.md"] == ("h1", None) and readings["inbox/a/2026-10-08-y.md"] == ("h2", "2:20:6:6")
    assert all(readings[p] == ("h", k) for p, k in many.items())
    assert [tuple(r) for r in store.query("SELECT problems FROM workspace_files WHERE path = 'inbox/a/2026-10-08-x.md'")
            ] == [('["a problem"]',)]
