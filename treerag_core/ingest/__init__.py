"""read → sections → tree → summaries → outline: a source becomes an indexed document.

``formats`` says which reader a file gets; ``readers`` turn bytes into rich pages or
structured text; ``structure`` strategies find headings; ``sections`` and ``tree`` build the
hierarchy; ``summarize`` writes summaries and tags; ``indexer`` runs it all and stores it.
"""
