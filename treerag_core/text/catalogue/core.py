"""The core's own words a person reads: page labels ("p. 4"), the names of what gave a
tree its structure, the typed errors' messages (by key: the library raises them in English,
the app says them in the person's language) and the notes the offline engine writes under
an answer (in the answer's language). The library's callers get English unless they ask."""

from __future__ import annotations

from ..language import LANGUAGE_NAMES

EN: dict[str, str] = {
    # Pages, slides and sheets, as references, Sources lines and captions name them
    "page.page.one": "p. {start}",
    "page.page.many": "pp. {start}–{end}",
    "page.slide.one": "slide {start}",
    "page.slide.many": "slides {start}–{end}",
    "page.sheet.one": "sheet {start}",
    "page.sheet.many": "sheets {start}–{end}",
    # What gave a document its tree (a document's ``structure_source``, its parts' names)
    "structure.bookmarks": "bookmarks",
    "structure.bookmarks_and_typography": "bookmarks and typography",
    "structure.printed_contents": "printed contents",
    "structure.printed_contents_and_typography": "printed contents and typography",
    "structure.typography_and_numbering": "typography and numbering",
    "structure.typography": "typography",
    "structure.numbering_and_keywords": "numbering and keywords",
    "structure.page_groups": "page groups",
    "structure.headings": "headings",
    "structure.none": "none",
    "structure.unknown": "unknown",
    "structure.slides": "slides",
    "structure.sheets": "sheets",
    "structure.heading_styles": "heading styles",
    "structure.markdown_headings": "markdown headings",
    "structure.html_headings": "html headings",
    "structure.e_mail_message": "e-mail message",
    "structure.e_mail_threads": "e-mail threads",
    "structure.e_book_contents_epub_3": "e-book contents (EPUB 3)",
    "structure.e_book_contents_ncx": "e-book contents (NCX)",
    "structure.e_book_reading_order": "e-book reading order",
    # Typed errors (``TreeragError.key``), as the library words them in English
    "error.unsupported_format": "Unsupported file type {kind} for {name}. Supported: "
    "{supported}, or an http(s) URL.",
    "error.no_extension": "(no extension)",
    "error.upload_too_large": "{name} is {size} MB, over the upload limit of {limit} MB for "
    "{kind} files.",
    "error.bytes_too_large": "{name} is {size} bytes; the limit for this type is {limit} bytes.",
    "error.pages_too_many": "{name} has {count} pages; the limit is {limit} pages.",
    "error.sections_too_many": "{name} has {count} sections, over the limit of {limit}. Split "
    "the document or raise TREERAG_MAX_SECTIONS.",
    "error.empty": "{name} is empty: there is nothing to index.",
    "error.no_text": "{name} contains no text: there is nothing to index.",
    "error.no_sections": "{name} holds no text to index.",
    "error.cannot_read": "Cannot read {name}: {reason}.",
    "error.pdf_no_header": "{name} is not a PDF file (no %PDF header).",
    "error.pdf_page_tree": "{name} is damaged: its page tree cannot be read.",
    "error.pdf_encryption": "{name} uses an encryption this server cannot open ({reason}).",
    "error.pdf_password": "{name} is password-protected. Remove the password (or print it to "
    "a new PDF) and upload it again.",
    "error.pdf_locked": "{name} is password-protected and cannot be read.",
    "error.pdf_damaged": "{name} is damaged or not a valid PDF and cannot be read ({kind}).",
    "error.no_document_id": "No document with id {id} in {where}.",
    "error.no_document_named": "No document named {name} in {where}.",
    "error.document_deleted": "Document {id} was just deleted.",
    "error.unresolved_host": "Cannot resolve host {host}: {reason}.",
    "error.blocked_host": "Refusing to fetch {host}: {reason}. Only public internet addresses "
    "are allowed (an administrator can set TREERAG_ALLOW_PRIVATE_URLS=1).",
    "error.http_status": "{url} answered HTTP {status}: the page could not be fetched.",
    "error.fetch_timeout": "Fetching {url} timed out after {seconds} s; try again later.",
    "error.fetch_failed": "Could not fetch {url}: {reason}.",
    "error.content_type": "The URL returned content of type {mime}; only {supported} can be "
    "indexed.",
    # Notes under an answer, in the answer's language
    "note.computed": "(Computed by the offline engine from the table cells cited above; no "
    "model was used. Check the working against the cited pages.)",
    "note.set_aside": "_The model's answer could not be checked against the document ({why}), "
    "so the offline engine's answer from the same sections is shown instead._",
    "note.why_doubtful": "{doubtful} of its {claims} statements are not in it",
    "note.why_no_figure": "it states none of the figures the sections hold for the question",
    "note.empty_document": "The document has no indexed text, so there is nothing to answer from.",
    "note.model_failed": "_{reason}. The offline engine answered from the same sections instead:_",
    "note.not_computed_missing": "{head}: cannot be computed: the document's tables do not "
    "print {names}. The cells found are below; no figure is guessed.",
    "note.not_computed": "{head}: cannot be computed: {problem}.",
    "note.garbled_markup": "it contains the prompt's markup",
    "note.garbled_repeats": "it repeats itself",
    "note.garbled_language": "it is written in another language ({said}) than the question "
    "({asked})",
    "note.cross_language": "The question is in {asked} and the document is in {written}. The "
    "offline engine finds sections by the question's words, so it cannot answer across "
    "languages: ask in {written}, or set up a model (Settings), which reads both.",
    # The computed answer's working (the offline engine's, in the answer's language)
    "computed.not_found": "— (not found: {why})",
    "computed.only_one": "only one document prints it",
    "computed.none_prints": "no document prints it",
    "computed.highest_lowest": "highest in {year}: {high} ({high_value}); lowest: {low} "
    "({low_value}).",
    "computed.all_rows": "all rows",
    "computed.word_sum": "Total",
    "computed.word_average": "Average",
    "computed.word_count": "Number of rows",
    "computed.no_rows": "{label}, {where}: no rows match, so there is nothing to average.",
    "computed.spread": " in {parts} parts of the sheet",
    "computed.how_sum": "sum of {count} rows{spread}",
    "computed.how_average": "average of {count} rows{spread}",
    "computed.how_count": "rows counted{spread}",
    "computed.more_rows": "… and {count} more rows",
    # Why a computation stops (inside "cannot be computed: …", in the answer's language)
    "computed.problem_zero_base": "the {year} value is zero, so there is no rate of change",
    "computed.problem_cagr": "a CAGR needs two positive values in different years",
    "computed.problem_mixed": "the {phrase} cells mix percentages and amounts",
    "computed.problem_circular": "“{phrase}” is defined in terms of itself",
    "computed.problem_units": "{left} and {right} are not in the same unit",
    "computed.problem_zero_division": "it would divide by zero ({right} is 0)",
    # A library question: the answer when no document matches, and the routing's trace
    # (why each document was kept or dropped), in the answer's language
    "note.nothing_found": "No document you can read matches this question: try the words the "
    "documents would use, or pick the documents to ask.",
    "route.best": "the best match",
    "route.share": "{share} of the best",
    "route.too_many": "close, but only {count} documents are opened",
    "route.below_cut_compares": "{share} of the best, below the {cut} cut (the question compares)",
    "route.below_cut": "{share} of the best, below the {cut} cut (the question does not compare)",
    "route.best_of_name": "the best of a name the question compares",
    "route.filtered_out": "filtered out: {reason}",
    "route.filtered_out_both": "filtered out: {named}; {period}",
    "route.no_match": "no document in the library matches the question",
    "route.filter_names": "names: {names} → {count} documents",
    "route.filter_period": "period: {asked} → {count} documents",
    "route.card_names": "its card names {names}",
    "route.card_lacks": "its card does not name {names}",
    "route.own_period": "its own period, {period}, is the one asked",
    "route.other_period": "its own period is {period}, not {asked}",
    "route.model_failed": "search model: {why}; the offline choice",
    "route.model_no_card": "the reply named no card",
    "route.model_not_picked": "not picked by the search model",
    "route.model_picked": "picked by the search model",
    "route.model_picked_why": "picked by the search model: {reasoning}",
    "route.model_none": "the search model found no document for the question",
    "route.model_over_limit": "picked by the search model, but only {count} documents are opened",
    "route.checked_best": "the offline ranking's best, opened too (offline check)",
    "route.checked_note": "offline check: none of the documents the search model picked is "
    "among those the question's words find; the offline ranking's best is opened too",
    # A conversation as Markdown (the download), in the conversation's language
    "export.untitled": "treerag conversation",
    "export.started": "Started {created}, last answer {updated}.",
    "export.you": "**You:**",
    "export.no_answer": "(no answer)",
    "export.error": "> Error: {error}",
    "export.references": "References:",
    "export.also_read": "Also read:",
    "export.marked_up": "_Marked helpful{comment}_",
    "export.marked_down": "_Marked not helpful{comment}_",
}

DE: dict[str, str] = {
    "page.page.one": "S. {start}",
    "page.page.many": "S. {start}–{end}",
    "page.slide.one": "Folie {start}",
    "page.slide.many": "Folien {start}–{end}",
    "page.sheet.one": "Blatt {start}",
    "page.sheet.many": "Blätter {start}–{end}",
    "structure.bookmarks": "Lesezeichen",
    "structure.bookmarks_and_typography": "Lesezeichen und Typografie",
    "structure.printed_contents": "gedrucktes Inhaltsverzeichnis",
    "structure.printed_contents_and_typography": "gedrucktes Inhaltsverzeichnis und Typografie",
    "structure.typography_and_numbering": "Typografie und Nummerierung",
    "structure.typography": "Typografie",
    "structure.numbering_and_keywords": "Nummerierung und Schlüsselwörter",
    "structure.page_groups": "Seitengruppen",
    "structure.headings": "Überschriften",
    "structure.none": "keine",
    "structure.unknown": "unbekannt",
    "structure.slides": "Folien",
    "structure.sheets": "Tabellenblätter",
    "structure.heading_styles": "Überschrift-Formatvorlagen",
    "structure.markdown_headings": "Markdown-Überschriften",
    "structure.html_headings": "HTML-Überschriften",
    "structure.e_mail_message": "E-Mail-Nachricht",
    "structure.e_mail_threads": "E-Mail-Verläufe",
    "structure.e_book_contents_epub_3": "Inhaltsverzeichnis des E-Books (EPUB 3)",
    "structure.e_book_contents_ncx": "Inhaltsverzeichnis des E-Books (NCX)",
    "structure.e_book_reading_order": "Lesereihenfolge des E-Books",
    "error.unsupported_format": "Dateityp {kind} von {name} wird nicht unterstützt. "
    "Unterstützt: {supported} oder eine http(s)-URL.",
    "error.no_extension": "(ohne Endung)",
    "error.upload_too_large": "{name} ist {size} MB groß, über der Grenze von {limit} MB für "
    "{kind}-Dateien.",
    "error.bytes_too_large": "{name} ist {size} Bytes groß; die Grenze für diesen Typ liegt "
    "bei {limit} Bytes.",
    "error.pages_too_many": "{name} hat {count} Seiten; die Grenze liegt bei {limit} Seiten.",
    "error.sections_too_many": "{name} hat {count} Abschnitte, über der Grenze von {limit}. "
    "Teilen Sie das Dokument oder erhöhen Sie TREERAG_MAX_SECTIONS.",
    "error.empty": "{name} ist leer: Es gibt nichts zu indexieren.",
    "error.no_text": "{name} enthält keinen Text: Es gibt nichts zu indexieren.",
    "error.no_sections": "{name} enthält keinen Text zum Indexieren.",
    "error.cannot_read": "{name} kann nicht gelesen werden: {reason}.",
    "error.pdf_no_header": "{name} ist keine PDF-Datei (kein %PDF-Kopf).",
    "error.pdf_page_tree": "{name} ist beschädigt: Sein Seitenbaum kann nicht gelesen werden.",
    "error.pdf_encryption": "{name} ist auf eine Art verschlüsselt, die dieser Server nicht "
    "öffnen kann ({reason}).",
    "error.pdf_password": "{name} ist passwortgeschützt. Entfernen Sie das Passwort (oder "
    "drucken Sie es in ein neues PDF) und laden Sie es erneut hoch.",
    "error.pdf_locked": "{name} ist passwortgeschützt und kann nicht gelesen werden.",
    "error.pdf_damaged": "{name} ist beschädigt oder kein gültiges PDF und kann nicht gelesen "
    "werden ({kind}).",
    "error.no_document_id": "Kein Dokument mit der Kennung {id} in {where}.",
    "error.no_document_named": "Kein Dokument namens {name} in {where}.",
    "error.document_deleted": "Das Dokument {id} wurde gerade gelöscht.",
    "error.unresolved_host": "Der Rechnername {host} lässt sich nicht auflösen: {reason}.",
    "error.blocked_host": "{host} wird nicht abgerufen: {reason}. Erlaubt sind nur öffentliche "
    "Internetadressen (ein Administrator kann TREERAG_ALLOW_PRIVATE_URLS=1 setzen).",
    "error.http_status": "{url} antwortete mit HTTP {status}: Die Seite konnte nicht abgerufen "
    "werden.",
    "error.fetch_timeout": "Der Abruf von {url} brauchte länger als {seconds} s; versuchen Sie "
    "es später noch einmal.",
    "error.fetch_failed": "{url} konnte nicht abgerufen werden: {reason}.",
    "error.content_type": "Die URL lieferte Inhalt vom Typ {mime}; indexiert werden können nur "
    "{supported}.",
    "note.computed": "(Von der Offline-Engine aus den oben zitierten Tabellenzellen berechnet; "
    "kein Modell wurde verwendet. Prüfen Sie die Rechnung an den zitierten Seiten.)",
    "note.set_aside": "_Die Antwort des Modells ließ sich nicht am Dokument prüfen ({why}), "
    "daher wird stattdessen die Antwort der Offline-Engine aus denselben Abschnitten gezeigt._",
    "note.why_doubtful": "{doubtful} ihrer {claims} Aussagen stehen nicht darin",
    "note.why_no_figure": "sie nennt keine der Zahlen, die die Abschnitte zur Frage enthalten",
    "note.empty_document": "Das Dokument hat keinen indexierten Text, es gibt also nichts, "
    "woraus sich antworten ließe.",
    "note.model_failed": "_{reason}. Die Offline-Engine hat stattdessen aus denselben "
    "Abschnitten geantwortet:_",
    "note.not_computed_missing": "{head}: nicht berechenbar: Die Tabellen des Dokuments "
    "nennen {names} nicht. Die gefundenen Zellen stehen unten; keine Zahl wird geraten.",
    "note.not_computed": "{head}: nicht berechenbar: {problem}.",
    "note.garbled_markup": "sie enthält das Markup der Eingabe",
    "note.garbled_repeats": "sie wiederholt sich",
    "note.garbled_language": "sie ist in einer anderen Sprache ({said}) geschrieben als die "
    "Frage ({asked})",
    "note.cross_language": "Die Frage ist auf {asked}, das Dokument auf {written}. Die "
    "Offline-Engine findet Abschnitte über die Wörter der Frage und kann daher nicht über "
    "Sprachen hinweg antworten: Fragen Sie auf {written} oder richten Sie ein Modell ein "
    "(Einstellungen), das beide liest.",
    # Languages by name (a note naming the question's and the document's)
    "language.en": "Englisch",
    "language.de": "Deutsch",
    "language.fr": "Französisch",
    "language.es": "Spanisch",
    "language.it": "Italienisch",
    "language.pt": "Portugiesisch",
    "language.nl": "Niederländisch",
    "language.sv": "Schwedisch",
    "language.da": "Dänisch",
    "language.no": "Norwegisch",
    "language.fi": "Finnisch",
    "language.pl": "Polnisch",
    "language.cs": "Tschechisch",
    "language.sk": "Slowakisch",
    "language.ro": "Rumänisch",
    "language.hu": "Ungarisch",
    "language.tr": "Türkisch",
    "language.ca": "Katalanisch",
    "language.id": "Indonesisch",
    "language.vi": "Vietnamesisch",
    "language.ru": "Russisch",
    "language.uk": "Ukrainisch",
    "language.bg": "Bulgarisch",
    "language.ar": "Arabisch",
    "language.fa": "Persisch",
    "language.hi": "Hindi",
    "language.ja": "Japanisch",
    "language.zh": "Chinesisch",
    "language.ko": "Koreanisch",
    "language.el": "Griechisch",
    "language.he": "Hebräisch",
    "language.th": "Thailändisch",
    "computed.not_found": "— (nicht gefunden: {why})",
    "computed.only_one": "nur ein Dokument nennt den Wert",
    "computed.none_prints": "kein Dokument nennt den Wert",
    "computed.highest_lowest": "am höchsten in {year}: {high} ({high_value}); am niedrigsten: "
    "{low} ({low_value}).",
    "computed.all_rows": "alle Zeilen",
    "computed.word_sum": "Summe",
    "computed.word_average": "Durchschnitt",
    "computed.word_count": "Anzahl der Zeilen",
    "computed.no_rows": "{label}, {where}: Keine Zeile passt, es gibt also nichts zu mitteln.",
    "computed.spread": " in {parts} Teilen des Blatts",
    "computed.how_sum": "Summe von {count} Zeilen{spread}",
    "computed.how_average": "Durchschnitt von {count} Zeilen{spread}",
    "computed.how_count": "Zeilen gezählt{spread}",
    "computed.more_rows": "… und {count} weitere Zeilen",
    "computed.problem_zero_base": "der Wert für {year} ist null, es gibt also keine "
    "Veränderungsrate",
    "computed.problem_cagr": "eine CAGR braucht zwei positive Werte aus verschiedenen Jahren",
    "computed.problem_mixed": "die Zellen zu {phrase} mischen Prozentsätze und Beträge",
    "computed.problem_circular": "„{phrase}“ ist durch sich selbst definiert",
    "computed.problem_units": "{left} und {right} haben nicht dieselbe Einheit",
    "computed.problem_zero_division": "es würde durch null geteilt ({right} ist 0)",
    "note.nothing_found": "Kein Dokument, das Sie lesen dürfen, passt zu dieser Frage: "
    "Versuchen Sie es mit den Wörtern, die die Dokumente verwenden würden, oder wählen Sie "
    "die Dokumente aus, die Sie fragen möchten.",
    "route.best": "der beste Treffer",
    "route.share": "{share} des besten Treffers",
    "route.too_many": "knapp dahinter, aber nur {count} Dokumente werden geöffnet",
    "route.below_cut_compares": "{share} des besten Treffers, unter der Schwelle von {cut} "
    "(die Frage vergleicht)",
    "route.below_cut": "{share} des besten Treffers, unter der Schwelle von {cut} (die Frage "
    "vergleicht nicht)",
    "route.best_of_name": "der beste Treffer für einen Namen, den die Frage vergleicht",
    "route.filtered_out": "ausgefiltert: {reason}",
    "route.filtered_out_both": "ausgefiltert: {named}; {period}",
    "route.no_match": "kein Dokument der Bibliothek passt zur Frage",
    "route.filter_names": "Namen: {names} → {count} Dokument(e)",
    "route.filter_period": "Zeitraum: {asked} → {count} Dokument(e)",
    "route.card_names": "seine Karte nennt {names}",
    "route.card_lacks": "seine Karte nennt {names} nicht",
    "route.own_period": "sein eigener Zeitraum, {period}, ist der gefragte",
    "route.other_period": "sein eigener Zeitraum ist {period}, nicht {asked}",
    "route.model_failed": "Suchmodell: {why}; die Offline-Auswahl",
    "route.model_no_card": "die Antwort nannte keine Karte",
    "route.model_not_picked": "vom Suchmodell nicht gewählt",
    "route.model_picked": "vom Suchmodell gewählt",
    "route.model_picked_why": "vom Suchmodell gewählt: {reasoning}",
    "route.model_none": "das Suchmodell fand kein Dokument zur Frage",
    "route.model_over_limit": "vom Suchmodell gewählt, aber nur {count} Dokumente werden geöffnet",
    "route.checked_best": "der beste Treffer der Offline-Rangfolge, ebenfalls geöffnet "
    "(Offline-Prüfung)",
    "route.checked_note": "Offline-Prüfung: Keines der vom Suchmodell gewählten Dokumente ist "
    "unter denen, die die Wörter der Frage finden; der beste Treffer der Offline-Rangfolge "
    "wird ebenfalls geöffnet",
    "export.untitled": "treerag-Unterhaltung",
    "export.started": "Begonnen {created}, letzte Antwort {updated}.",
    "export.you": "**Sie:**",
    "export.no_answer": "(keine Antwort)",
    "export.error": "> Fehler: {error}",
    "export.references": "Quellen:",
    "export.also_read": "Ebenfalls gelesen:",
    "export.marked_up": "_Als hilfreich markiert{comment}_",
    "export.marked_down": "_Als nicht hilfreich markiert{comment}_",
}

# Languages by name, as English names them (one home: ``text.language``)
EN.update({f"language.{code}": name for code, name in LANGUAGE_NAMES.items()})
