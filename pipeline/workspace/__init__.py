"""Readers (and one careful writer) for the team's workspace files.

The contract is ``WORKSPACE.md``: inbox notes, paper cards, the work queue and the
knowledge docs. Every ``parse_*`` here is a pure function of the file's text and its
workspace-relative path; nothing reads the disk, nothing raises for bad input, and
what could not be read is listed in the record's ``problems``.
"""
from __future__ import annotations

from .cards import parse_card
from .edit import insert_anchor_line, unified_diff
from .knowledge import find_section, parse_knowledge, section_matches
from .notes import parse_note
from .queue import WorkQueue, parse_queue

__all__ = [
    "parse_note", "parse_card", "parse_queue", "WorkQueue", "parse_knowledge",
    "section_matches", "find_section", "insert_anchor_line", "unified_diff",
]
