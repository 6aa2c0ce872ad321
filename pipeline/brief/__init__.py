"""The daily increment briefing: collect the window's items, judge them, verify, render."""
