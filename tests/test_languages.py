"""The offline engine in every language: tokens, stems, stopwords, language detection,
sentences, question kinds, numbers and encodings, for English, German, French, Spanish,
Russian, Arabic, Chinese, Japanese and Korean (and a few more scripts)."""

from __future__ import annotations

import pytest

from treerag_core.answer.offline.question import read_question
from treerag_core.read.readers.text import decode_bytes
from treerag_core.text.language import detect_language, language_name
from treerag_core.text.numbers import parse_cell
from treerag_core.text.sentences import split_sentences
from treerag_core.text.tokens import fold_accents, tokenize


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("en", "The company’s long-term plans", ["company’", "long-term", "plan"]),
        (
            "de",
            "Wie lege ich ein zusätzliches Benutzerkonto an?",
            ["leg", "zusatz", "benutzerkonto"],
        ),
        ("fr", "Comment récupérer les paquets supprimés ?", ["recuper", "paquet", "supprim"]),
        ("es", "¿Cuántos paquetes hay en Debian?", ["cuant", "paquet", "debi"]),
        ("ru", "Как установить пакеты в Debian?", ["установ", "пакет", "debian"]),
        ("zh", "如何安装软件包？", ["如何", "何安", "安装", "装软", "软件", "件包"]),
        ("ko", "패키지 설치", ["패키", "키지", "설치"]),
    ],
)
def test_words_in_every_script_are_whole_stemmed_tokens(language, text, expected) -> None:
    assert tokenize(text, language) == expected


def test_japanese_runs_are_cut_where_kana_meets_kanji_and_particles_dropped() -> None:
    tokens = tokenize("練習用に追加のユーザーアカウントを作るには？", "ja")
    assert tokens[:3] == ["練習", "習用", "追加"]
    assert {"ユー", "アカ", "ント"} <= set(tokens)
    assert not {"に", "の", "を", "に追", "トを"} & set(tokens)


def test_arabic_and_devanagari_keep_their_marks_inside_words() -> None:
    assert tokenize("كيف أقوم بتثبيت الحزم؟", "ar")[-1] == "حزم"
    assert tokenize("हिन्दी भाषा", "hi") == ["हिन्द", "भाष"]


def test_accents_and_width_do_not_matter() -> None:
    assert tokenize("résumé café", "en") == tokenize("resume cafe", "en")
    assert tokenize("ＡＢＣ　１２３", "en") == ["abc", "123"]
    assert fold_accents("Ёлка Ελλάδα") == "Елка Ελλαδα"


def test_english_ascii_tokens_are_what_they_always_were() -> None:
    """The fast path and its light plural strip: English rankings do not move."""
    assert tokenize("Total revenues of the Company in 2023 were $5,363 million") == [
        "total", "revenue", "company", "2023", "5", "363", "million"]  # fmt: skip


def test_stopwords_come_from_each_language() -> None:
    assert tokenize("der die das und ist nicht", "de") == []
    assert tokenize("le la les et est", "fr") == []


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("This handbook describes how the company works and what the leave policy is.", "en"),
        (
            "Dieses Handbuch beschreibt, wie die Firma arbeitet und wie der Urlaub geregelt ist.",
            "de",
        ),  # fmt: skip
        ("Ce manuel décrit le fonctionnement de la société et la politique des congés.", "fr"),
        (
            "Este manual describe cómo funciona la empresa y cuál es la política de vacaciones.",
            "es",
        ),  # fmt: skip
        ("Это руководство описывает, как работает компания и какова политика отпусков.", "ru"),
        ("يصف هذا الدليل كيفية عمل الشركة وما هي سياسة الإجازات.", "ar"),
        ("この手引きでは、会社の仕組みと休暇の方針について説明します。", "ja"),
        ("本手册介绍公司的运作方式以及休假政策。", "zh"),
        ("이 안내서는 회사가 어떻게 운영되는지 설명합니다.", "ko"),
        ("Revenue 2023 2022 Total", ""),
    ],
)
def test_the_language_is_told_from_the_text(text, code) -> None:
    assert detect_language(text) == code


def test_the_letters_of_codes_are_no_words() -> None:
    # An order sheet: a thousand "A00412" codes once counted Czech's stopword "a".
    rows = "\n".join(f"A{i:05},West,Q{i % 4 + 1},Toaster,On time,4,75" for i in range(1000))
    assert detect_language("Order,Region,Quarter,Product,Status,Units,Revenue\n" + rows) != "cs"
    assert detect_language("Die Zahl 2023a ist nicht die Zahl, die wir im Jahr meinen.") == "de"


def test_language_names() -> None:
    assert language_name("de") == "German" and language_name("") == "unknown"


def test_sentences_end_at_every_scripts_stops() -> None:
    assert split_sentences("Debian は自由です。パッケージは約5万個あります！本当ですか？はい。") == [
        "Debian は自由です。", "パッケージは約5万個あります！", "本当ですか？", "はい。"]  # fmt: skip
    assert split_sentences("Es un sistema libre. ¿Cuántos paquetes hay? Hay 50.000.") == [
        "Es un sistema libre.", "¿Cuántos paquetes hay?", "Hay 50.000."]  # fmt: skip
    assert split_sentences("هل هذا صحيح؟ نعم.") == ["هل هذا صحيح؟", "نعم."]
    assert split_sentences("Это система. Пакетов около 50 000.") == [
        "Это система.", "Пакетов около 50 000."]  # fmt: skip


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many packages does Debian have?", "count"),
        ("Wie viele Pakete enthält Debian?", "count"),
        ("Combien de paquets contient Debian ?", "count"),
        ("¿Cuántos paquetes tiene Debian?", "count"),
        ("Сколько пакетов в Debian?", "count"),
        ("كم عدد الحزم في ديبيان؟", "count"),
        ("Debian有多少个软件包？", "count"),
        ("Debianにはパッケージが何個ありますか？", "count"),
        ("데비안에는 몇 개의 패키지가 있습니까?", "count"),
        ("Wann erschien Debian 12?", "date"),
        ("Quand Debian 12 est-il sorti ?", "date"),
        ("Когда вышел Debian 12?", "date"),
        ("Debian 12 はいつ公開されましたか？", "date"),
        ("Wer hat Debian gegründet?", "name"),
        ("谁创立了 Debian？", "name"),
    ],
)
def test_question_kinds_in_the_major_languages(question, kind) -> None:
    assert read_question(question).kind == kind


@pytest.mark.parametrize(
    ("cell", "value"),
    [
        ("1,234.56", 1234.56),
        ("1.234,56", 1234.56),
        ("1\u00a0234,56", 1234.56),
        ("1\u202f234", 1234.0),
        ("12,5", 12.5),
        ("12,500", 12500.0),
        ("1.234.567", 1234567.0),
        ("1'234.50", 1234.5),
        ("5万", 50000.0),
        ("3億", 3e8),
        ("(1,577)", -1577.0),
    ],
)
def test_numbers_in_every_locales_notation(cell, value) -> None:
    assert parse_cell(cell).value == pytest.approx(value)


def test_currencies_and_percent_after_the_number() -> None:
    euros = parse_cell("1.234,56€")
    assert euros.value == pytest.approx(1234.56) and euros.currency == "€"
    percent = parse_cell("24,6 %")
    assert percent.percent and percent.shown() == "24,6%"


@pytest.mark.parametrize(
    ("encoding", "text"),
    [
        (
            "shift_jis",
            "# 手引き\n\n練習用に追加のユーザーアカウントを作るには、adduser を使います。",
        ),
        (
            "gb18030",
            "# 手册\n\n如何安装软件包？使用 apt 命令安装软件包。系统管理员负责维护服务器。",
        ),
        ("cp1251", "# Руководство\n\nКак установить пакеты? Используйте команду apt."),
        ("latin-1", "# Résumé\n\nLe système récupère les paquets supprimés. Très bien."),
        ("euc-kr", "# 안내서\n\n패키지를 설치하려면 apt 명령을 사용합니다."),
        ("cp1252", "Café naïve – “quoted”"),
    ],
)
def test_text_in_legacy_encodings_is_read_as_its_text(encoding, text) -> None:
    assert decode_bytes(text.encode(encoding)) == text


def test_html_declared_charset_is_honoured() -> None:
    page = '<html><head><meta charset="shift_jis"></head><body>練習</body></html>'
    assert decode_bytes(page.encode("shift_jis")).endswith("練習</body></html>")


def test_a_plain_text_manual_keeps_its_numbered_questions_under_its_chapters(tmp_path) -> None:
    """ "Chapter 3." then "3.1." (the chapter's own numbers go on from its number) and a
    heading ending in "?" followed by an indented paragraph (its body, not its title)."""
    from treerag_core import index_document

    source = tmp_path / "faq.txt"
    source.write_text(
        "Chapter 1. Definitions\n\n1.1.\u00a0What is this FAQ?\n\n    It answers questions"
        " about the system.\n\nChapter 3. Choosing\n\n3.1.\u00a0Which release is better"
        "\nfor me?\n\n    The answer depends on what you do with it.\n\n3.2.\u00a0Can I change"
        " later?\n\n    Yes, you can move to another release.\n",
        encoding="utf-8",
    )
    document = index_document(str(source), persist=False, verbose=False)
    titles = [(n["level"], n["title"]) for n in document["flat_nodes"].values()]
    assert (2, "What is this FAQ?") in titles
    assert any(
        level == 2 and title.startswith("Which release is better") for level, title in titles
    )
    assert (2, "Can I change later?") in titles


def test_a_japanese_manual_has_its_chapters_and_numbered_questions(tmp_path) -> None:
    """第1章 and 1장 chapters, their 1.1 … questions under them, and body lines (which have no
    capitals, so are no ALL-CAPS headings) left as body."""
    from treerag_core import index_document

    source = tmp_path / "faq-ja.txt"
    source.write_text(
        "第1章定義と概要\n\n1.1. この FAQ は何?\n\n    この文書はよくある質問に答えます。\n"
        "してください。\n\n第3章 ディストリビューションの選択\n\n3.1. どの版がよいですか?\n\n"
        "    答えは用途によって変わります。\n",
        encoding="utf-8",
    )
    flat = index_document(str(source), persist=False, verbose=False)["flat_nodes"]
    titles = [(n["level"], n["title"]) for n in flat.values()]
    assert titles == [
        (1, "第1章定義と概要"), (2, "この FAQ は何?"), (1, "第3章 ディストリビューションの選択"),
        (2, "どの版がよいですか?")]  # fmt: skip


def test_compounds_and_elisions_meet_their_parts() -> None:
    """``Standard-Papiergröße`` finds ``Papiergröße`` and ``Standardpapiergröße``; French
    ``l'ordinateur`` is ``ordinateur``; English keeps its words as they were."""
    german = tokenize("Standard-Papiergröße", "de")
    assert {"standard", "papiergross", "standardpapiergross"} <= set(german)
    assert set(tokenize("Papiergröße", "de")) <= set(german)
    assert tokenize("l'ordinateur d’un e-mail", "fr") == ["ordin", "e", "mail", "email"]
    assert tokenize("long-term e-mail", "en") == ["long-term", "e-mail"]


@pytest.mark.parametrize(
    ("line", "unit", "currency"),
    [
        ("(in millions, except per share data)", "million", ""),
        ("(Angaben in Mio. EUR)", "Mio.", "€"),
        ("(en milliers d'euros)", "milliers", "€"),
        ("(en miles de euros)", "miles de", "€"),
        ("(в млн руб.)", "млн", "₽"),
        ("（単位：百万円）", "百万円", ""),
        ("单位：万元", "万元", ""),
        ("(in thousands, except pounds)", "thousand", ""),
    ],
)
def test_units_lines_in_other_languages(line, unit, currency) -> None:
    from treerag_core.text.numbers import currency_of, unit_of

    assert unit_of(line) == unit
    assert currency_of(line) == currency


def test_a_german_table_and_a_japanese_one_are_answered_with_their_own_units() -> None:
    from testkit.llm_test_docs import make_doc
    from treerag_core import ask, make_retriever

    german = make_doc(
        "# Geschäftsbericht\nDer Bericht des Vorstands.\n\n## Umsatz nach Regionen\n"
        "Umsatz nach Regionen (in Mio. EUR)\nRegion 2023 2022\nNord 1.234,5 1.100,2\n"
        "Süd 987,0 950,1\n",
        "bericht.md",
    )
    german["language"] = "de"
    answer = ask("Wie hoch war der Umsatz der Region Nord 2023?", german, make_retriever())
    assert answer.content.startswith("Nord, 2023: 1.234,5 Mio. € [S1]")
    japanese = make_doc(
        "# 決算報告\n当社の決算概要です。\n\n## 地域別売上高\n地域別売上高（単位：百万円）\n"
        "地域 2023 2022\n東日本 1,234 1,100\n西日本 987 950\n",
        "kessan.md",
    )
    japanese["language"] = "ja"
    answer = ask("2023年の東日本の売上高はいくらですか？", japanese, make_retriever())
    assert answer.content.startswith("東日本, 2023: 1,234 百万円 [S1]")


def test_abbreviations_of_other_languages_end_no_sentence() -> None:
    assert split_sentences("Der Umsatz stieg auf 5 Mio. Euro im Jahr. Danach fiel er.") == [
        "Der Umsatz stieg auf 5 Mio. Euro im Jahr.",
        "Danach fiel er.",
    ]


def test_ascii_words_are_the_word_pattern_s_in_lower_case_ascii() -> None:
    """The fast way for ASCII text finds exactly what the general pattern finds there: runs
    of letters standing alone, not the letters of a code ("a00412", "q3", "x_1")."""
    import random
    import re

    from treerag_core.text import language

    general = re.compile(r"\b[^\W\d_]+\b")
    rng = random.Random(7)
    made = ["".join(rng.choice("aB9_ '-.\tZ\n") for _ in range(rng.randint(0, 40)))
            for _ in range(2000)]  # fmt: skip
    for text in (
        "the a00412 q3 x_1 it's co-op, and_ so 12ab ab12 (ok) ",
        "",
        "a",
        "_a_ a_",
        "9a a9",
        "The A00412 Q3 X_1 It's",
        *made,
    ):
        assert language._words(text) == [w.casefold() for w in general.findall(text)], text
