"""The benchmarks: ``python -m bench NAME`` runs one, ``python -m bench list`` lists them
(``bench/catalog.py``); ``python -m bench`` alone runs the speed benchmark against treerag
0.1.5. Heavy outputs go to ``bench/out/`` (git-ignored); each one's latest results to
``bench/results/`` through ``bench/record.py``, and their headlines to ``bench/README.md``.
"""
