"""Gold cells for bench/questions/compared.jsonl: comparisons across the shared filings.

Each question compares one quantity across two to four filings in one or two periods; each
cell's gold (filing × period) is computed here from statement figures transcribed by hand
off each filing's statement pages (the same transcriptions as computed_gold.py, in USD
millions), independent of the engine. A period is the filing's own column label ("2022" in
Nike's FY2023 10-K is its fiscal 2022). Run it to rewrite compared.jsonl.
"""

import json
from decimal import ROUND_HALF_UP
from decimal import Decimal as D
from pathlib import Path

N, A, M, L, K, P, V, W, T, B = (
    "NIKE_2023_10K", "AMAZON_2019_10K", "MICROSOFT_2023_10K", "LOCKHEEDMARTIN_2022_10K",
    "KRAFTHEINZ_2019_10K", "PEPSICO_2022_10K", "VERIZON_2022_10K", "WALMART_2020_10K",
    "3M_2022_10K", "BESTBUY_2019_10K",
)  # fmt: skip

# Statement figures (USD millions) by filing, line and year.
REVENUE = {
    N: {2023: 51217, 2022: 46710, 2021: 44538},
    P: {2022: 86392, 2021: 79474, 2020: 70372},
    T: {2022: 34229, 2021: 35355, 2020: 32184},
    A: {2019: 280522, 2017: 177866},
    M: {2023: 211915},
    L: {2022: 65984, 2021: 67044},
    K: {2019: 24977, 2018: 26268},
    W: {2020: 523964, 2019: 514405},
    B: {2019: 42879, 2018: 42151, 2017: 39403},
}
NET_INCOME = {
    N: {2023: 5070, 2022: 6046, 2021: 5727},
    V: {2022: 21748, 2021: 22618},
    L: {2022: 5732, 2021: 6315},
}
COST_OF_SALES = {N: {2023: 28925}, P: {2022: 40576}, T: {2022: 19232}, A: {2019: 165536},
                 K: {2019: 16830}, W: {2020: 394605}}  # fmt: skip
OPERATING_INCOME = {T: {2022: 6539, 2021: 7369, 2020: 7161}, M: {2023: 88523, 2022: 83383},
                    A: {2019: 14541}, W: {2020: 20568}}  # fmt: skip
CURRENT = {  # (total current assets, total current liabilities) at year end
    N: {2023: (25202, 9256)}, L: {2022: (20991, 15887)}, V: {2022: (37857, 50171)},
    T: {2022: (14688, 9523)}, A: {2019: (96334, 87812)}, K: {2019: (8097, 7875)},
    P: {2021: (21783, 26220)},
}  # fmt: skip
TAX = {V: {2022: (6523, 28271)}, N: {2022: (605, 6651)}, M: {2023: (16950, 89311)},
       P: {2021: (2142, 9821)}}  # (provision, income before taxes)  # fmt: skip


def r(x, p):
    return x.quantize(D(1).scaleb(-p), rounding=ROUND_HALF_UP)


def pct(x, p=1):
    return f"{r(x * 100, p)}%"


def money(table, f, y):
    return f"${table[f][y]}"


def margin(top, f, y):
    return pct(D(top[f][y]) / D(REVENUE[f][y]))


def gross(f, y):
    return pct((D(REVENUE[f][y]) - D(COST_OF_SALES[f][y])) / D(REVENUE[f][y]))


def ratio(f, y):
    a, b = CURRENT[f][y]
    return str(r(D(a) / D(b), 2))


def tax(f, y):
    a, b = TAX[f][y]
    return pct(D(a) / D(b))


Q = []


def q(i, files, years, text, gold):
    """A question over ``files`` in ``years``; ``gold(file, year)`` is each cell."""
    cells = {f: {str(y): gold(f, y) for y in years} for f in files}
    Q.append({"id": i, "files": [f"pdfs/{f}.pdf" for f in files], "question": text,
              "years": years, "cells": cells})  # fmt: skip


rev = lambda f, y: money(REVENUE, f, y)  # noqa: E731
net = lambda f, y: money(NET_INCOME, f, y)  # noqa: E731
q("k01", [N, P, T], [2022], "Compare revenues across Nike, PepsiCo and 3M in 2022.", rev)
q("k02", [N, P, T], [2021, 2022], "How did revenues compare across Nike, PepsiCo and 3M from "
  "2021 to 2022?", rev)  # fmt: skip
q("k03", [N, V, L], [2022], "Compare net income across Nike, Verizon and Lockheed Martin in "
  "2022.", net)  # fmt: skip
q("k04", [N, V, L], [2021, 2022], "How did net income compare between Nike, Verizon and "
  "Lockheed Martin from 2021 to 2022?", net)  # fmt: skip
q("k05", [P, T], [2022], "Compare the gross margin of PepsiCo and 3M in 2022.", gross)
q("k06", [L, V, T], [2022], "Compare the current ratio across Lockheed Martin, Verizon and 3M "
  "at the end of 2022.", ratio)  # fmt: skip
q("k07", [N, V], [2022], "Compare the effective tax rate of Nike and Verizon in 2022.", tax)
q("k08", [T, M], [2022], "Compare operating income across 3M and Microsoft in 2022.",
  lambda f, y: money(OPERATING_INCOME, f, y))  # fmt: skip
q("k09", [A, B, K], [2019], "Compare total net sales across Amazon, Best Buy and Kraft Heinz "
  "in 2019.", rev)  # fmt: skip
q("k10", [B, K], [2018, 2019], "How did revenue compare across Best Buy and Kraft Heinz from "
  "2018 to 2019?", rev)  # fmt: skip
q("k11", [A, W], [2019], "Compare total revenues of Amazon and Walmart in 2019.", rev)
q("k12", [A, K], [2019], "Compare cost of sales across Amazon and Kraft Heinz in 2019.",
  lambda f, y: money(COST_OF_SALES, f, y))  # fmt: skip
q("k13", [L, N], [2021], "Compare the net profit margin of Lockheed Martin and Nike in 2021.",
  lambda f, y: margin(NET_INCOME, f, y))  # fmt: skip
q("k14", [K, A], [2019], "Compare gross margin across Kraft Heinz and Amazon in 2019.", gross)
q("k15", [A, K], [2019], "Compare the current ratio of Amazon and Kraft Heinz at the end of "
  "2019.", ratio)  # fmt: skip
q("k16", [N, M], [2023], "Compare total revenues of Nike and Microsoft in fiscal 2023.", rev)
q("k17", [N, P, T], [2022], "Which of Nike, PepsiCo and 3M had the highest revenues in 2022?",
  rev)  # fmt: skip
q("k18", [L, T], [2021, 2022], "How did revenues compare between Lockheed Martin and 3M from "
  "2021 to 2022?", rev)  # fmt: skip

# Cells a filing cannot give (a year it does not print, a line not transcribed) are left out
# of the scoring (None), never guessed.
for item in Q:
    item["cells"] = {f: {y: g for y, g in c.items() if g is not None} for f, c in
                     item["cells"].items()}  # fmt: skip
Q = [item for item in Q if sum(len(c) for c in item["cells"].values()) >= 2]

if __name__ == "__main__":
    with (Path(__file__).resolve().parent / "compared.jsonl").open("w") as fh:
        for item in Q:
            fh.write(json.dumps(item) + "\n")
    print(len(Q), "questions,", sum(len(c) for i in Q for c in i["cells"].values()), "cells")
