"""High Card: a third game that lives only in this folder (the extension point's proof):
installed as a distribution of its own, found through its ``scorekeeper.games`` entry
point, with its own catalog (``locale/``) and rules texts (``rules/``)."""
