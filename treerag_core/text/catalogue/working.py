"""The words our code adds to a computed answer, in the answer's language: the headline's
label where we compose it (a metric's name from the metrics table, "3-year average …",
"… CAGR", the fiscal year), the working's "average X" and "change in X", and the model's
calculations (their note, a cell the model was never sent). The document's own row labels
and the names a question or a model gives stay as they are written."""

from __future__ import annotations

EN: dict[str, str] = {
    # The headline's label and period (English as ``offline.asks`` always composed them)
    "computed.label_average": "{years}-year average {name}",
    "computed.label_cagr": "{name} CAGR",
    "computed.fiscal_year": "FY{year}",
    "computed.days": " days",
    # The working: a quantity averaged over two years, or its change from the year before
    "computed.working_average": "average {name} ({working})",
    "computed.working_change": "change in {name} ({working})",
    # The model's calculations, computed by the app
    "note.model_computed": "_(Computed by the app from the table cells cited above, as the "
    "model asked; the model did no arithmetic. Check the working against the cited pages.)_",
    "computed.label_default": "Computed",
    "computed.cell_not_sent": "cell {cell} (not among the tables the model was sent)",
    # The named metrics (``text.metrics``): each one's first name, as a headline names it
    "metric.gross_margin": "Gross margin",
    "metric.operating_margin": "Operating margin",
    "metric.net_profit_margin": "Net profit margin",
    "metric.ebitda_margin": "Ebitda margin",
    "metric.ebitda": "Ebitda",
    "metric.fixed_asset_turnover": "Fixed asset turnover",
    "metric.asset_turnover": "Asset turnover",
    "metric.inventory_turnover": "Inventory turnover",
    "metric.current_ratio": "Current ratio",
    "metric.quick_ratio": "Quick ratio",
    "metric.net_working_capital": "Net working capital",
    "metric.days_sales_outstanding": "Days sales outstanding",
    "metric.days_payable_outstanding": "Days payable outstanding",
    "metric.days_inventory_outstanding": "Days inventory outstanding",
    "metric.cash_conversion_cycle": "Cash conversion cycle",
    "metric.free_cash_flow": "Free cash flow",
    "metric.capex_intensity": "Capex intensity",
    "metric.effective_tax_rate": "Effective tax rate",
    "metric.dividend_payout_ratio": "Dividend payout ratio",
    "metric.retention_ratio": "Retention ratio",
    "metric.return_on_assets": "Return on assets",
    "metric.return_on_equity": "Return on equity",
    "metric.debt_to_equity": "Debt to equity",
    "metric.interest_coverage": "Interest coverage",
}

DE: dict[str, str] = {
    "computed.label_average": "{name}, Durchschnitt über {years} Jahre",
    "computed.label_cagr": "{name}, jährliche Wachstumsrate (CAGR)",
    "computed.fiscal_year": "GJ {year}",
    "computed.days": " Tage",
    "computed.working_average": "{name} im Durchschnitt ({working})",
    "computed.working_change": "Veränderung bei {name} ({working})",
    "note.model_computed": "_(Von der App aus den oben zitierten Tabellenzellen berechnet, wie "
    "das Modell es verlangt hat; das Modell selbst hat nicht gerechnet. Prüfen Sie die Rechnung "
    "an den zitierten Seiten.)_",
    "computed.label_default": "Berechnet",
    "computed.cell_not_sent": "Zelle {cell} (nicht unter den Tabellen, die das Modell erhielt)",
    "metric.gross_margin": "Bruttomarge",
    "metric.operating_margin": "Operative Marge",
    "metric.net_profit_margin": "Nettogewinnmarge",
    "metric.ebitda_margin": "EBITDA-Marge",
    "metric.ebitda": "EBITDA",
    "metric.fixed_asset_turnover": "Umschlag des Sachanlagevermögens",
    "metric.asset_turnover": "Kapitalumschlag",
    "metric.inventory_turnover": "Lagerumschlag",
    "metric.current_ratio": "Liquidität dritten Grades (Current Ratio)",
    "metric.quick_ratio": "Liquidität zweiten Grades (Quick Ratio)",
    "metric.net_working_capital": "Nettoumlaufvermögen",
    "metric.days_sales_outstanding": "Forderungslaufzeit in Tagen (DSO)",
    "metric.days_payable_outstanding": "Verbindlichkeitenlaufzeit in Tagen (DPO)",
    "metric.days_inventory_outstanding": "Lagerreichweite in Tagen (DIO)",
    "metric.cash_conversion_cycle": "Cash Conversion Cycle (Geldumschlagsdauer)",
    "metric.free_cash_flow": "Freier Cashflow",
    "metric.capex_intensity": "Investitionsquote",
    "metric.effective_tax_rate": "Effektiver Steuersatz",
    "metric.dividend_payout_ratio": "Ausschüttungsquote",
    "metric.retention_ratio": "Thesaurierungsquote",
    "metric.return_on_assets": "Gesamtkapitalrendite (ROA)",
    "metric.return_on_equity": "Eigenkapitalrendite (ROE)",
    "metric.debt_to_equity": "Verschuldungsgrad (Debt-to-Equity)",
    "metric.interest_coverage": "Zinsdeckungsgrad",
}
