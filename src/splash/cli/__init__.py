"""The command line: ``splash bash play | referee | simulate`` (the top layer)."""
