"""What the scores look like: terminal tables and layouts, exports, JSON views, the
stats report, the review and the served pages. No Typer here: the commands in
:mod:`scorekeeper.cli` parse, call the library and hand its records to these views."""
