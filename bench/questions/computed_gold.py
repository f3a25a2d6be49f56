"""Gold answers for bench/questions/computed.jsonl, computed by hand-transcribed figures
read off each filing's statement pages (pdfium text), independent of the engine."""

import json
from decimal import ROUND_HALF_UP
from decimal import Decimal as D
from pathlib import Path


def r(x, p):
    return x.quantize(D(1).scaleb(-p), rounding=ROUND_HALF_UP)


def pct(x, p=1):
    return f"{r(x * 100, p)}%"


def avg(*xs):
    return sum(xs, D(0)) / len(xs)


Q = []


def q(i, f, pages, text, ans):
    Q.append(
        {
            "id": i,
            "file": f"pdfs/{f}.pdf",
            "question": text,
            "answer": str(ans),
            "evidence_pages": pages,
        }
    )


N, A, M, L, K, P, V, W, T, B = (
    "NIKE_2023_10K",
    "AMAZON_2019_10K",
    "MICROSOFT_2023_10K",
    "LOCKHEEDMARTIN_2022_10K",
    "KRAFTHEINZ_2019_10K",
    "PEPSICO_2022_10K",
    "VERIZON_2022_10K",
    "WALMART_2020_10K",
    "3M_2022_10K",
    "BESTBUY_2019_10K",
)
q(
    "c01",
    N,
    [59],
    "What was Nike's gross margin in fiscal 2023?",
    pct((D(51217) - D(28925)) / D(51217)),
)
q(
    "c02",
    N,
    [59],
    "By how much did Nike's revenues grow from FY2022 to FY2023, in percent?",
    pct((D(51217) - D(46710)) / D(46710)),
)
q("c03", N, [59], "What was Nike's effective tax rate in FY2022?", pct(D(605) / D(6651)))
q(
    "c04",
    N,
    [61],
    "What was Nike's current ratio at the end of FY2023? Round to two decimal places.",
    r(D(25202) / D(9256), 2),
)
q(
    "c05",
    N,
    [59],
    "What was Nike's three-year average net profit margin from FY2021 to FY2023 (as a %)?",
    pct(avg(D(5070) / D(51217), D(6046) / D(46710), D(5727) / D(44538))),
)
q("c06", A, [38], "What was Amazon's operating margin in 2019?", pct(D(14541) / D(280522)))
q(
    "c07",
    A,
    [37],
    "What was Amazon's free cash flow in 2019, defined as net cash provided by operating activities minus purchases of property and equipment? Answer in USD millions.",
    f"${D(38514) - D(16861)}",
)
q(
    "c08",
    A,
    [38, 40],
    "What is Amazon's FY2019 inventory turnover ratio, defined as FY2019 cost of sales / average inventories between FY2018 and FY2019? Round to two decimal places.",
    r(D(165536) / avg(D(17174), D(20497)), 2),
)
q(
    "c09",
    A,
    [40],
    "What was Amazon's working capital at the end of 2019 (in USD millions)?",
    f"${D(96334) - D(87812)}",
)
q(
    "c10",
    A,
    [38],
    "What was the 2-year CAGR of Amazon's total net sales from 2017 to 2019 (in percent, one decimal place)?",
    pct((D(280522) / D(177866)).sqrt() - 1),
)
q(
    "c11",
    M,
    [58],
    "What was Microsoft's effective tax rate in fiscal year 2023?",
    pct(D(16950) / D(89311)),
)
q(
    "c12",
    M,
    [58, 61],
    "What was Microsoft's capex intensity in FY2023, i.e. additions to property and equipment as a % of total revenue?",
    pct(D(28107) / D(211915)),
)
q(
    "c13",
    M,
    [58, 61],
    "What was Microsoft's dividend payout ratio in FY2022? Round to two decimal places.",
    r(D(18135) / D(72738), 2),
)
q(
    "c14",
    M,
    [58],
    "How much did Microsoft's operating income change from FY2022 to FY2023, in USD millions?",
    f"${D(88523) - D(83383)}",
)
q(
    "c15",
    M,
    [58, 60],
    "What was Microsoft's fixed asset turnover in FY2023, defined as FY2023 total revenue divided by average property and equipment, net between FY2022 and FY2023? Round to two decimals.",
    r(D(211915) / avg(D(95641), D(74398)), 2),
)
q(
    "c16",
    L,
    [65],
    "What was Lockheed Martin's current ratio at the end of 2022? Round to two decimal places.",
    r(D(20991) / D(15887), 2),
)
q(
    "c17",
    L,
    [63],
    "What was Lockheed Martin's net profit margin in 2021 (as a %)?",
    pct(D(6315) / D(67044)),
)
q(
    "c18",
    L,
    [63, 66],
    "What was Lockheed Martin's dividend payout ratio in 2022, as a percentage of net earnings?",
    pct(D(3016) / D(5732)),
)
q(
    "c19",
    L,
    [66],
    "What was the year-over-year change in Lockheed Martin's net cash provided by operating activities from 2021 to 2022, in USD millions?",
    f"{D(7802) - D(9221)}",
)
q(
    "c20",
    L,
    [63, 65],
    "What was Lockheed Martin's days sales outstanding in 2022, defined as 365 * average receivables, net between 2021 and 2022 / 2022 total net sales? Round to two decimals.",
    r(365 * avg(D(2505), D(1963)) / D(65984), 2),
)
q(
    "c21",
    K,
    [50],
    "What was Kraft Heinz's gross margin in 2019?",
    pct((D(24977) - D(16830)) / D(24977)),
)
q(
    "c22",
    K,
    [52],
    "What was Kraft Heinz's working capital ratio at the end of 2019? Define working capital ratio as total current assets divided by total current liabilities. Round to two decimal places.",
    r(D(8097) / D(7875), 2),
)
q(
    "c23",
    K,
    [50],
    "What was the percentage change in Kraft Heinz's net sales from 2018 to 2019?",
    pct((D(24977) - D(26268)) / D(26268)),
)
q("c24", K, [50], "What was Kraft Heinz's operating margin in 2018?", pct(D(-10205) / D(26268)))
q("c25", P, [62], "What was PepsiCo's gross margin in 2022?", pct((D(86392) - D(40576)) / D(86392)))
q("c26", P, [62], "What was PepsiCo's effective tax rate in 2021?", pct(D(2142) / D(9821)))
q(
    "c27",
    P,
    [62],
    "What was PepsiCo's average net revenue over 2020 to 2022, in USD millions?",
    f"${r(avg(D(86392), D(79474), D(70372)), 0)}",
)
q(
    "c28",
    P,
    [62],
    "What was PepsiCo's 2-year net revenue CAGR from 2020 to 2022, in percent?",
    pct((D(86392) / D(70372)).sqrt() - 1),
)
q(
    "c29",
    P,
    [66],
    "What was PepsiCo's current ratio at the end of 2021? Round to two decimal places.",
    r(D(21783) / D(26220), 2),
)
q("c30", V, [54], "What was Verizon's effective tax rate in 2022?", pct(D(6523) / D(28271)))
q(
    "c31",
    V,
    [56],
    "What was Verizon's current ratio at the end of 2022? Round to two decimal places.",
    r(D(37857) / D(50171), 2),
)
q(
    "c32",
    V,
    [54],
    "How much did Verizon's net income change from 2021 to 2022, in USD millions?",
    f"{D(21748) - D(22618)}",
)
q(
    "c33",
    V,
    [54, 56],
    "What was Verizon's return on assets in 2022, defined as 2022 net income divided by average total assets between 2021 and 2022? Round to three decimal places.",
    r(D(21748) / avg(D(379680), D(366596)), 3),
)
q("c34", W, [51], "What was Walmart's operating margin in fiscal 2020?", pct(D(20568) / D(523964)))
q(
    "c35",
    W,
    [56],
    "What was Walmart's free cash flow in fiscal 2020, in USD millions?",
    f"${D(25255) - D(10705)}",
)
q(
    "c36",
    W,
    [51],
    "What was Walmart's three-year average effective tax rate from fiscal 2018 to fiscal 2020?",
    pct(avg(D(4600) / D(15123), D(4281) / D(11460), D(4915) / D(20116))),
)
q(
    "c37",
    W,
    [51, 53],
    "What was Walmart's days inventory outstanding in fiscal 2020, defined as 365 * average inventories between FY2019 and FY2020 / FY2020 cost of sales? Round to two decimal places.",
    r(365 * avg(D(44435), D(44269)) / D(394605), 2),
)
q(
    "c38",
    W,
    [51],
    "What was the growth in Walmart's total revenues from fiscal 2019 to fiscal 2020, in percent?",
    pct((D(523964) - D(514405)) / D(514405)),
)
q("c39", T, [48], "What was 3M's gross margin in 2022?", pct((D(34229) - D(19232)) / D(34229)))
q(
    "c40",
    T,
    [48, 52],
    "What was 3M's capex intensity in 2021, i.e. purchases of property, plant and equipment as a % of net sales?",
    pct(D(1603) / D(35355)),
)
q(
    "c41",
    T,
    [50],
    "What was 3M's working capital at year-end 2022, in USD millions?",
    f"${D(14688) - D(9523)}",
)
q(
    "c42",
    T,
    [48],
    "What was 3M's three-year average operating margin from 2020 to 2022?",
    pct(avg(D(7161) / D(32184), D(7369) / D(35355), D(6539) / D(34229))),
)
q(
    "c43",
    T,
    [48, 50],
    "What was 3M's asset turnover in 2022, defined as 2022 net sales / average total assets between 2021 and 2022? Round to two decimal places.",
    r(D(34229) / avg(D(46455), D(47072)), 2),
)
q(
    "c44",
    B,
    [53],
    "What was Best Buy's revenue growth from fiscal 2018 to fiscal 2019, in percent?",
    pct((D(42879) - D(42151)) / D(42151)),
)
q(
    "c45",
    B,
    [52, 53],
    "What was Best Buy's asset turnover ratio in FY2019, defined as FY2019 revenue / average total assets between FY2018 and FY2019? Round to two decimals.",
    r(D(42879) / avg(D(12901), D(13049)), 2),
)
q(
    "c46",
    B,
    [53],
    "What was Best Buy's 2-year revenue CAGR from FY2017 to FY2019 (in percent)?",
    pct((D(42879) / D(39403)).sqrt() - 1),
)
with (Path(__file__).resolve().parent / "computed.jsonl").open("w") as f:
    for item in Q:
        f.write(json.dumps(item) + "\n")
print(len(Q))
