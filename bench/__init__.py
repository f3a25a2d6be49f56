"""Speed/scale benchmark against treerag 0.1.5 and the FinanceBench retrieval evaluation.

``python -m bench`` runs the speed benchmark; ``python -m bench.financebench`` the retrieval
evaluation on the development set. Heavy outputs go to ``bench/out/`` (git-ignored); the
small reports to ``bench/results/``.
"""
