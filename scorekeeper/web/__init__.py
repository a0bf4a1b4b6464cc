"""The HTTP server of ``score serve``: live, read-only pages for every phone at the table
(the pages themselves are views, :mod:`scorekeeper.views.pages`)."""
