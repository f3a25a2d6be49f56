"""The words of what the app computes for the answer model, in the answer's language: why a
sheet aggregate the model asked for cannot be computed (inside "cannot be computed: …"), and
the note under a comparison whose table the app computed and the model concluded from."""

from __future__ import annotations

EN: dict[str, str] = {
    "sheet.no_sheet": "no sheet “{sheet}” was among the sections sent (sheets: {sheets})",
    "sheet.no_column": "{sheet} has no column “{column}” (its columns: {columns})",
    "sheet.no_measure": "the model named no column of {sheet} to add up (its columns: {columns})",
    "sheet.no_figures": "the column “{column}” of {sheet} holds no figures",
    "sheet.no_value": "no row of {sheet} has {column} “{value}”",
    "sheet.no_value_listed": "no row of {sheet} has {column} “{value}” (its values: {values})",
    "sheet.one_value": "the rows are filtered by one value of {column}, not by several",
    "sheet.kind": "“{kind}” is not a sum, an average or a count",
    "note.model_compared": "_(The table was computed by the app from the table cells cited in "
    "it; the model wrote only the conclusion beneath it and did no arithmetic. Check the "
    "working against the cited pages.)_",
}

DE: dict[str, str] = {
    "sheet.no_sheet": "kein Blatt „{sheet}“ war unter den gesendeten Abschnitten (Blätter: "
    "{sheets})",
    "sheet.no_column": "{sheet} hat keine Spalte „{column}“ (seine Spalten: {columns})",
    "sheet.no_measure": "das Modell nannte keine Spalte von {sheet} zum Addieren (seine Spalten: "
    "{columns})",
    "sheet.no_figures": "die Spalte „{column}“ von {sheet} enthält keine Zahlen",
    "sheet.no_value": "keine Zeile von {sheet} hat {column} „{value}“",
    "sheet.no_value_listed": "keine Zeile von {sheet} hat {column} „{value}“ (ihre Werte: "
    "{values})",
    "sheet.one_value": "die Zeilen werden nach einem Wert von {column} gefiltert, nicht nach "
    "mehreren",
    "sheet.kind": "„{kind}“ ist weder eine Summe noch ein Durchschnitt noch eine Anzahl",
    "note.model_compared": "_(Die Tabelle hat die App aus den darin zitierten Tabellenzellen "
    "berechnet; das Modell schrieb nur die Schlussfolgerung darunter und rechnete nichts. "
    "Prüfen Sie die Rechnung an den zitierten Seiten.)_",
}
