"""The Settings page's words: the engine form, the key's status and the connection test."""

from __future__ import annotations

EN: dict[str, str] = {
    "set.key_session": "An API key was entered in this session.",
    "set.key_environment": "An API key is set in the environment or .env.",
    "set.key_none": "No API key set.",
    "set.provider": "Provider",
    "set.search_model": "Search / summary model",
    "set.answer_model": "Answer model",
    "set.not_offline": "not used offline",
    "set.search_mode": "How the search model's choice is used",
    "set.mode.checked": "checked against the offline ranking",
    "set.mode.model": "as the model chose",
    "set.mode.offline": "offline ranking chooses, the model answers",
    "set.search_mode_help": "Checked: when none of the sections the model chose is near what "
    "the question's words find, the offline ranking's best are read too. Offline: for a model "
    "too weak to choose sections; it still writes the answer.",
    "set.api_key": "OpenAI API key",
    "set.api_key_placeholder": "leave empty to keep the current key",
    "set.base_url": "OpenAI base URL (optional)",
    "set.ollama_host": "Ollama host",
    "set.registry": "Registry file or database URL",
    "set.registry_help": "Where the documents and conversations are kept",
    "set.registry_now": "Registry: {where}",
    "set.save": "Save settings",
    "set.saved": "Settings saved for this session.",
    "set.test": "Test connection",
    "set.testing": "Calling the model…",
    "set.forget_key": "Forget the session's API key",
    "set.deployments": "Deployments configure these (and every other setting: "
    "docs/configuration.md) with environment variables such as TREERAG_REGISTRY, "
    "OPENAI_API_KEY, OPENAI_BASE_URL, OLLAMA_HOST and TREERAG_SEARCH_MODE, or a .env file "
    "(working directory: {cwd}).",
}

DE: dict[str, str] = {
    "set.key_session": "In dieser Sitzung wurde ein API-Schlüssel eingegeben.",
    "set.key_environment": "Ein API-Schlüssel ist in der Umgebung oder in .env gesetzt.",
    "set.key_none": "Kein API-Schlüssel gesetzt.",
    "set.provider": "Anbieter",
    "set.search_model": "Modell für Suche und Zusammenfassungen",
    "set.answer_model": "Modell für Antworten",
    "set.not_offline": "offline nicht verwendet",
    "set.search_mode": "Wie die Wahl des Suchmodells verwendet wird",
    "set.mode.checked": "mit der Offline-Rangfolge geprüft",
    "set.mode.model": "wie das Modell wählte",
    "set.mode.offline": "die Offline-Rangfolge wählt, das Modell antwortet",
    "set.search_mode_help": "Geprüft: Liegt keiner der vom Modell gewählten Abschnitte nahe "
    "an dem, was die Wörter der Frage finden, werden auch die besten der Offline-Rangfolge "
    "gelesen. Offline: für ein Modell, das zu schwach ist, Abschnitte zu wählen; es schreibt "
    "trotzdem die Antwort.",
    "set.api_key": "OpenAI-API-Schlüssel",
    "set.api_key_placeholder": "leer lassen, um den aktuellen Schlüssel zu behalten",
    "set.base_url": "OpenAI-Basis-URL (optional)",
    "set.ollama_host": "Ollama-Host",
    "set.registry": "Registerdatei oder Datenbank-URL",
    "set.registry_help": "Wo die Dokumente und Unterhaltungen aufbewahrt werden",
    "set.registry_now": "Register: {where}",
    "set.save": "Einstellungen speichern",
    "set.saved": "Einstellungen für diese Sitzung gespeichert.",
    "set.test": "Verbindung testen",
    "set.testing": "Das Modell wird aufgerufen…",
    "set.forget_key": "Den API-Schlüssel der Sitzung vergessen",
    "set.deployments": "Installationen stellen dies (und jede andere Einstellung: "
    "docs/configuration.md) über Umgebungsvariablen wie TREERAG_REGISTRY, OPENAI_API_KEY, "
    "OPENAI_BASE_URL, OLLAMA_HOST und TREERAG_SEARCH_MODE oder eine .env-Datei ein "
    "(Arbeitsverzeichnis: {cwd}).",
}
