"""Sources: where payloads come from (``registry``) and the pure parsers that read them.

Every parser here is a pure function (or a streaming generator over a file object the
caller opened): no network, no database, no clock. Fetching lives in ``pipeline.net``
and ``pipeline.ingest``; saving lives in ``kb.store``.

* ``registry``       — the kinds of source and the workspace's configured sources
* ``detect``         — which format a payload is, and the one dispatcher to its parser
* ``xmlsafe``        — the one place XML is parsed (no entities, clear errors)
* ``arxiv_listing``  — rss.arxiv.org RSS 2.0 / Atom daily listings
* ``arxiv_api``      — export.arxiv.org/api/query Atom responses
* ``arxiv_bulk``     — Kaggle JSON lines and OAI-PMH dumps, streamed
* ``hf_daily``       — huggingface.co/api/daily_papers JSON
* ``blogs``          — any RSS/Atom blog feed (via feedparser)
* ``text``           — whitespace, author lists and dates as the parsers read them
"""
