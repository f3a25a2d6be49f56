"""navigate → answer: the search model reads the outline (``navigate``), the chosen
sections are quoted (``context``), the answer model replies (``answer``'s drivers) and the
result carries references and usage (``result``). ``tree_view`` slices the tree for people."""
