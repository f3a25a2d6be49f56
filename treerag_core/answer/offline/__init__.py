"""The offline answer: the document's own table row or sentence that answers, cited.

``question`` reads what is asked (kind, periods, metric); ``candidates`` gathers rows and
sentences and how their words weigh; ``rows`` and ``sentences`` score each kind on one
scale; ``extractive`` composes and cites the best.
"""
