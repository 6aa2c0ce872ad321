"""The archive site: every recorded briefing as static HTML with an index, topic pages and Atom feeds."""
