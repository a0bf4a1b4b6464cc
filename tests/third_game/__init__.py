"""High Card: a third game that lives only in this folder (the extension point's proof)."""
