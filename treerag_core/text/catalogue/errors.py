"""The typed errors a person meets in the app, by key: the readers' refusals (damaged,
encrypted, over a limit, OCR missing), a URL the network guard refuses and why, access
refusals and conversation errors. The library raises them in English (``str(exc)``); the
app says them in the person's language. Reasons that go inside another message (why an
address is refused, why a model's reply was set aside) are here too."""

from __future__ import annotations

EN: dict[str, str] = {
    # Files a reader refuses
    "error.image_unreadable": "{name} is not an image this server can read.",
    "error.image_pages": "{name} has over {limit} pages.",
    "error.image_pixels": "{name} is {width} × {height} pixels, over the limit of {limit} "
    "pixels (TREERAG_MAX_IMAGE_PIXELS): it is not decoded.",
    "error.image_larger": "{name} is larger, over the limit of {limit} pixels "
    "(TREERAG_MAX_IMAGE_PIXELS): it is not decoded.",
    "error.no_image": "{name} holds no image.",
    "error.csv_unreadable": "{name} is not a readable CSV file: {reason}.",
    "error.damaged_pptx": "{name} is damaged and cannot be read as a PowerPoint deck ({kind}).",
    "error.damaged_docx": "{name} is damaged and cannot be read as a Word document ({kind}).",
    "error.damaged_xlsx": "{name} is damaged and cannot be read as an Excel workbook ({kind}).",
    "error.damaged_ods": "{name} is damaged and cannot be read as a spreadsheet ({kind}).",
    "error.damaged_msg": "{name} is damaged and cannot be read as an Outlook message ({kind}).",
    "error.xml_unreadable": "{name} is damaged: its {what} is not readable XML.",
    "error.xml_entities": "{name} is refused: its {what} declares entities that expand "
    "without bound.",
    "error.xml_empty": "{name} is damaged: its {what} is empty.",
    "error.mailbox_empty": "{name} holds no readable messages (a mailbox file starts each "
    "with a 'From ' line).",
    "error.mail_no_headers": "{name} is not an e-mail message: it has no message headers.",
    "error.mail_too_deep": "{name} nests its parts more than {limit} levels deep (real mail "
    "nests a few): it was not read.",
    "error.msg_needs_package": "{name} is an Outlook message: reading it needs the Python "
    "package {package}, which is not installed.",
    "error.msg_not_msg": "{name} is not an Outlook message (.msg) file.",
    "error.msg_other_item": "{name} is an Outlook item of another kind ({kind}), not a message.",
    "error.msg_too_deep": "{name} nests its messages too deeply to read.",
    "error.epub_too_deep": "{name} nests its contents too deeply to read.",
    "error.epub_no_opf": "{name} is damaged: its package file (OPF) is missing.",
    "error.epub_no_spine": "{name} has no chapters in its reading order (spine).",
    "error.epub_hint": " Save the e-book as .epub (EPUB 2 or 3) without DRM.",
    "error.office_encrypted": "{name} is password-protected (encrypted). Open it in its "
    "application, remove the password and upload it again.",
    "error.office_old_binary": "{name} is an old binary Office file with a new extension: "
    "rename it to .doc, .xls or .ppt (whichever it is) so it is converted, or save it again "
    "as {label}.",
    "error.zip_invalid": "{name} is not a valid {label} file (it is not a readable zip "
    "archive: it may be damaged or cut short).{hint}",
    "error.zip_expands": "{name} would expand to {total} bytes, over the {limit}-byte limit.",
    "error.zip_not_kind": "{name} is a zip file but not a {label} file.",
    "error.zip_part": "{name} is damaged: its part {member} cannot be read.",
    "error.odf_not_kind": "{name} is an OpenDocument file, but not a {label} file.",
    "error.odf_not_xml": "{name} is damaged: its {label} content is not XML.",
    "error.odf_no_body": "{name} has no text body.",
    "error.needs_libreoffice": "{name} is a {ext} file: reading it needs LibreOffice, which "
    "is not installed (Debian packages {packages}). Install them, or save the file in a "
    "current format (.docx, .xlsx, .pptx) and upload that.",
    "error.convert_failed": "{name} could not be converted by LibreOffice: it may be "
    "damaged, password-protected or not really a {ext} file.",
    "error.convert_timeout": "Converting {name} with LibreOffice took longer than {seconds} s "
    "and was stopped (TREERAG_CONVERT_TIMEOUT_S).",
    # Scanned pages (OCR)
    "error.ocr_missing": "Reading scanned pages needs Tesseract OCR: install the "
    "Debian/Ubuntu package tesseract-ocr (sudo apt-get install tesseract-ocr; other languages "
    "are tesseract-ocr-LANG), or Tesseract for your system, then index the file again.",
    "error.ocr_not_started": "Tesseract could not be started ({reason}). {hint}",
    "error.ocr_no_language": "Tesseract has no data for the language {code}: install "
    "{packages} (sudo apt-get install {packages}) or change TREERAG_OCR_LANGUAGE (auto: the "
    "scan's own language when installed).",
    "error.ocr_page_timeout": "OCR of a page took over {seconds} s and was stopped.",
    "error.ocr_failed": "OCR failed on a page: {detail}",
    "error.ocr_pages": "{count} pages need OCR, over the limit of {limit} (TREERAG_OCR_MAX_PAGES).",
    "error.ocr_timeout": "OCR took longer than {seconds} s (TREERAG_OCR_TIMEOUT_S); nothing "
    "was stored.",
    # Web pages: fetching, and the addresses the network guard refuses
    "error.redirect_no_location": "{url} redirected (HTTP {status}) without a Location.",
    "error.status_unusable": "{url} answered HTTP {status}, which cannot be indexed.",
    "error.too_many_redirects": "Too many redirects (more than {limit}) starting at {url}.",
    "error.fetch_too_long": "Fetching {url} took too long (overall time limit reached).",
    "error.page_too_large": "{url} is {size} bytes, over the {limit}-byte limit for fetched pages.",
    "error.page_larger": "{url} is larger than the {limit}-byte limit for fetched pages.",
    "error.url_invalid": "Not a valid URL: {url} ({reason}).",
    "error.url_scheme": "Only http and https URLs can be fetched, not {scheme}.",
    "error.url_credentials": "URLs with a user name or password (user@host) are not fetched.",
    "error.url_no_host": "The URL {url} has no host name.",
    "error.host_no_addresses": "Host {host} has no addresses.",
    "address.embedded": "{reason} (embedded in {address})",
    "address.metadata": "{address} is a cloud metadata address",
    "address.unspecified": "{address} is the unspecified address",
    "address.multicast": "{address} is a multicast address",
    "address.loopback": "{address} is a loopback address",
    "address.link_local": "{address} is a link-local address",
    "address.cgnat": "{address} is a carrier-grade NAT address",
    "address.private": "{address} is a private network address",
    "address.reserved": "{address} is a reserved address",
    # Access refusals (a team deployment)
    "error.no_readable_document": "There is no document {id} that you may read.",
    "error.read_only": "You may read this document but not change it: only editors of the "
    "collection {collection} may (ask an admin).",
    "error.admins_only": "Only admins may {what}.",
    "error.what_collections": "manage collections and read the audit log",
    "error.what_sources": "manage synced folders and buckets",
    "error.not_in_role": "You are not an {role} of the collection {collection}: ask an admin "
    "for access.",
    "role.reader": "reader",
    "role.editor": "editor",
    "role.admin": "admin",
    "error.no_identity": "This request carries no identity from the sign-in proxy "
    "({user_header} / {email_header}): it is refused.",
    "error.no_claims": "The identity provider returned no e-mail, user name or subject.",
    "error.collection_name": "{name} is not a valid collection name: use 1-64 letters, "
    "digits, spaces, dots, dashes or underscores, starting with a letter or digit.",
    "error.member_name": "{name} is not a user or group name.",
    # Conversations, and an answer marked as wrong made an evaluation question
    "error.no_thread": "There is no conversation {id} of yours: it was deleted, or the link "
    "belongs to someone else.",
    "error.no_turn": "This conversation has no answer number {index}.",
    "error.thread_full": "This conversation has reached {limit} answers: start a new one.",
    "error.no_title": "A conversation needs a title: type one first.",
    "error.verdict": "A verdict is 'up' or 'down', not {verdict}.",
    "error.not_page_number": "{part} is not a page number: type pages like 12, 14-15.",
    "error.not_page_range": "{part} is not a page range of this document.",
    "error.no_pages_marked": "Mark at least one page that holds the right answer.",
    "error.not_marked_wrong": "Only an answer marked as wrong becomes an evaluation question.",
    "error.document_gone": "That document is no longer in the registry.",
    "error.nothing_marked": "Mark the pages (or sections) that hold the right answer.",
    "error.pages_beyond": "{name} has {total} pages, not {page}.",
    "error.not_your_question": "Only the person who saved a question, or an admin, may remove it.",
    # Synced folders and buckets (the Sources page)
    "error.patterns": "Too many or too long {what} patterns (at most {count} of {chars} "
    "characters).",
    "error.patterns_include": "include",
    "error.patterns_exclude": "exclude",
    "error.source_kind": "A source is a folder or an s3 bucket, not {kind}.",
    "error.folder_no_endpoint": "A folder source takes no endpoint or credentials.",
    "error.credentials_both": "Name the credentials' environment variable or file, not both.",
    "error.credentials_env_name": "{name} is not an environment variable name.",
    "error.store_no_sources": "The store {store} cannot follow folders or buckets (it keeps no "
    "sources).",
    "error.no_source": "There is no synced source {id}.",
    "error.registry_inside": "The registry {registry} is inside {folder}: keep the registry "
    "outside the folder it follows.",
    "error.bucket_url": "{url} is not a bucket URL (s3://bucket/prefix).",
    "error.credentials_env": "The environment variable {name} must hold "
    "ACCESS_KEY_ID:SECRET_ACCESS_KEY for this source (it is not set, or not in that form).",
    "error.credentials_file": "Cannot read the credentials file {path}: {reason}",
    "error.credentials_section": "The credentials file {path} has no [default] section with "
    "aws_access_key_id and aws_secret_access_key.",
    "error.needs_boto3": "S3 sources need boto3 ({reason}): pip install -r requirements.txt.",
    "error.unsafe_key": "{name} is an unsafe key: not read.",
    "error.folder_no_path": "A folder source needs the folder's path.",
    "error.not_a_folder": "{path} is not a folder this server can read.",
    "error.not_inside": "{path} is not a path inside the folder.",
    "error.leads_outside": "{path} leads outside the folder: not read.",
    "error.over_file_limit": "{name} is over the file size limit of {limit} MB.",
    "error.sync_busy": "A sync of source {id} is already running; it will pick up every "
    "change it finds, so there is no need to start another.",
    # The registry itself, and a file offered for import
    "error.registry_busy": "The registry is busy (lock {lock} held for over {seconds} s).",
    "error.registry_not_json": "The registry {path} is not valid JSON ({reason}). It was left "
    "untouched; restore it from a backup or move it aside to start a new one.",
    "error.registry_newer": "The registry {path} was written by a newer treerag (schema "
    "{version}); upgrade treerag to open it.",
    "error.import_too_large": "The file is {size} MB, over the import limit of {limit} MB.",
    "error.import_not_json": "The file is not valid JSON: {reason}",
    "error.import_version": "This export has version {version}; this treerag reads version "
    "{known} or older.",
    "error.import_empty": "The export holds no documents.",
    "error.import_not_export": "This is not a treerag export: expected a file made by "
    "'Export' in the registry.",
    # A cited page that cannot be drawn, a question, a questions file (Evaluate)
    "error.slides_not_drawn": "{name}'s slides cannot be drawn (LibreOffice is not installed, "
    "or the source is gone): its passage is shown as text.",
    "error.no_pages_to_draw": "{name} has no pages to draw: its passage is text.",
    "error.source_not_stored": "The source file {name} is no longer stored, so its pages "
    "cannot be shown; the quoted text is shown instead. Upload it again to see the pages.",
    "error.empty_question": "The question is empty: type a question first.",
    "error.questions_not_json": "{source}, line {line}: not JSON ({reason}).",
    "error.questions_no_question": "{source}, line {line}: no 'question'.",
    "error.questions_pages": "{source}, line {line}: 'evidence_pages' must be a list of page "
    "numbers.",
    "error.questions_history": "{source}, line {line}: 'history' must be a list of the "
    "earlier questions.",
    "error.questions_not_utf8": "{path} is not UTF-8 text ({reason}).",
}

DE: dict[str, str] = {
    "error.image_unreadable": "{name} ist kein Bild, das dieser Server lesen kann.",
    "error.image_pages": "{name} hat mehr als {limit} Seiten.",
    "error.image_pixels": "{name} ist {width} × {height} Pixel groß, über der Grenze von "
    "{limit} Pixeln (TREERAG_MAX_IMAGE_PIXELS): Es wird nicht dekodiert.",
    "error.image_larger": "{name} ist größer als die Grenze von {limit} Pixeln "
    "(TREERAG_MAX_IMAGE_PIXELS): Es wird nicht dekodiert.",
    "error.no_image": "{name} enthält kein Bild.",
    "error.csv_unreadable": "{name} ist keine lesbare CSV-Datei: {reason}.",
    "error.damaged_pptx": "{name} ist beschädigt und kann nicht als PowerPoint-Präsentation "
    "gelesen werden ({kind}).",
    "error.damaged_docx": "{name} ist beschädigt und kann nicht als Word-Dokument gelesen "
    "werden ({kind}).",
    "error.damaged_xlsx": "{name} ist beschädigt und kann nicht als Excel-Arbeitsmappe "
    "gelesen werden ({kind}).",
    "error.damaged_ods": "{name} ist beschädigt und kann nicht als Tabellendokument gelesen "
    "werden ({kind}).",
    "error.damaged_msg": "{name} ist beschädigt und kann nicht als Outlook-Nachricht gelesen "
    "werden ({kind}).",
    "error.xml_unreadable": "{name} ist beschädigt: {what} ist kein lesbares XML.",
    "error.xml_entities": "{name} wird abgelehnt: {what} deklariert Entitäten, die sich "
    "unbegrenzt ausdehnen.",
    "error.xml_empty": "{name} ist beschädigt: {what} ist leer.",
    "error.mailbox_empty": "{name} enthält keine lesbaren Nachrichten (in einer Postfachdatei "
    "beginnt jede mit einer Zeile 'From ').",
    "error.mail_no_headers": "{name} ist keine E-Mail-Nachricht: Sie hat keine Kopfzeilen.",
    "error.mail_too_deep": "{name} verschachtelt seine Teile tiefer als {limit} Ebenen "
    "(echte E-Mails nur wenige): Es wurde nicht gelesen.",
    "error.msg_needs_package": "{name} ist eine Outlook-Nachricht: Zum Lesen braucht es das "
    "Python-Paket {package}, das nicht installiert ist.",
    "error.msg_not_msg": "{name} ist keine Outlook-Nachricht (.msg).",
    "error.msg_other_item": "{name} ist ein Outlook-Element anderer Art ({kind}), keine Nachricht.",
    "error.msg_too_deep": "{name} verschachtelt seine Nachrichten zu tief, um sie zu lesen.",
    "error.epub_too_deep": "{name} verschachtelt seinen Inhalt zu tief, um ihn zu lesen.",
    "error.epub_no_opf": "{name} ist beschädigt: Die Paketdatei (OPF) fehlt.",
    "error.epub_no_spine": "{name} hat keine Kapitel in seiner Lesereihenfolge (Spine).",
    "error.epub_hint": " Speichern Sie das E-Book als .epub (EPUB 2 oder 3) ohne DRM.",
    "error.office_encrypted": "{name} ist passwortgeschützt (verschlüsselt). Öffnen Sie es in "
    "seinem Programm, entfernen Sie das Passwort und laden Sie es erneut hoch.",
    "error.office_old_binary": "{name} ist eine alte binäre Office-Datei mit neuer Endung: "
    "Benennen Sie sie in .doc, .xls oder .ppt um (je nachdem, was sie ist), damit sie "
    "umgewandelt wird, oder speichern Sie sie erneut als {label}.",
    "error.zip_invalid": "{name} ist keine gültige {label}-Datei (kein lesbares ZIP-Archiv: "
    "Sie ist vielleicht beschädigt oder abgeschnitten).{hint}",
    "error.zip_expands": "{name} würde sich auf {total} Bytes entpacken, über der Grenze von "
    "{limit} Bytes.",
    "error.zip_not_kind": "{name} ist eine ZIP-Datei, aber keine {label}-Datei.",
    "error.zip_part": "{name} ist beschädigt: Sein Teil {member} kann nicht gelesen werden.",
    "error.odf_not_kind": "{name} ist eine OpenDocument-Datei, aber keine {label}-Datei.",
    "error.odf_not_xml": "{name} ist beschädigt: Sein {label}-Inhalt ist kein XML.",
    "error.odf_no_body": "{name} hat keinen Textkörper.",
    "error.needs_libreoffice": "{name} ist eine {ext}-Datei: Zum Lesen braucht es LibreOffice, "
    "das nicht installiert ist (Debian-Pakete {packages}). Installieren Sie sie oder "
    "speichern Sie die Datei in einem aktuellen Format (.docx, .xlsx, .pptx) und laden Sie "
    "diese hoch.",
    "error.convert_failed": "{name} konnte von LibreOffice nicht umgewandelt werden: Die "
    "Datei ist vielleicht beschädigt, passwortgeschützt oder gar keine {ext}-Datei.",
    "error.convert_timeout": "Die Umwandlung von {name} mit LibreOffice dauerte länger als "
    "{seconds} s und wurde abgebrochen (TREERAG_CONVERT_TIMEOUT_S).",
    "error.ocr_missing": "Zum Lesen gescannter Seiten braucht es Tesseract OCR: Installieren "
    "Sie das Debian/Ubuntu-Paket tesseract-ocr (sudo apt-get install tesseract-ocr; andere "
    "Sprachen sind tesseract-ocr-LANG) oder Tesseract für Ihr System und indexieren Sie die "
    "Datei dann erneut.",
    "error.ocr_not_started": "Tesseract ließ sich nicht starten ({reason}). {hint}",
    "error.ocr_no_language": "Tesseract hat keine Daten für die Sprache {code}: "
    "Installieren Sie {packages} (sudo apt-get install {packages}) oder ändern Sie "
    "TREERAG_OCR_LANGUAGE (auto: die Sprache des Scans, wenn installiert).",
    "error.ocr_page_timeout": "Die Texterkennung einer Seite dauerte über {seconds} s und "
    "wurde abgebrochen.",
    "error.ocr_failed": "Die Texterkennung ist auf einer Seite fehlgeschlagen: {detail}",
    "error.ocr_pages": "{count} Seiten brauchen Texterkennung, über der Grenze von {limit} "
    "(TREERAG_OCR_MAX_PAGES).",
    "error.ocr_timeout": "Die Texterkennung dauerte länger als {seconds} s "
    "(TREERAG_OCR_TIMEOUT_S); nichts wurde gespeichert.",
    "error.redirect_no_location": "{url} leitete um (HTTP {status}), ohne ein Ziel (Location) "
    "zu nennen.",
    "error.status_unusable": "{url} antwortete mit HTTP {status}; das lässt sich nicht indexieren.",
    "error.too_many_redirects": "Zu viele Umleitungen (mehr als {limit}) ab {url}.",
    "error.fetch_too_long": "Der Abruf von {url} dauerte zu lange (Gesamtzeitgrenze erreicht).",
    "error.page_too_large": "{url} ist {size} Bytes groß, über der Grenze von {limit} Bytes "
    "für abgerufene Seiten.",
    "error.page_larger": "{url} ist größer als die Grenze von {limit} Bytes für abgerufene Seiten.",
    "error.url_invalid": "Keine gültige URL: {url} ({reason}).",
    "error.url_scheme": "Nur http- und https-URLs können abgerufen werden, nicht {scheme}.",
    "error.url_credentials": "URLs mit Benutzername oder Passwort (user@host) werden nicht "
    "abgerufen.",
    "error.url_no_host": "Die URL {url} hat keinen Rechnernamen.",
    "error.host_no_addresses": "Der Rechner {host} hat keine Adressen.",
    "address.embedded": "{reason} (eingebettet in {address})",
    "address.metadata": "{address} ist eine Cloud-Metadaten-Adresse",
    "address.unspecified": "{address} ist die unspezifizierte Adresse",
    "address.multicast": "{address} ist eine Multicast-Adresse",
    "address.loopback": "{address} ist eine Loopback-Adresse",
    "address.link_local": "{address} ist eine Link-Local-Adresse",
    "address.cgnat": "{address} ist eine Carrier-Grade-NAT-Adresse",
    "address.private": "{address} ist eine Adresse eines privaten Netzes",
    "address.reserved": "{address} ist eine reservierte Adresse",
    "error.no_readable_document": "Es gibt kein Dokument {id}, das Sie lesen dürfen.",
    "error.read_only": "Sie dürfen dieses Dokument lesen, aber nicht ändern: Das dürfen nur "
    "Bearbeiter der Sammlung {collection} (fragen Sie einen Administrator).",
    "error.admins_only": "Nur Administratoren dürfen {what}.",
    "error.what_collections": "Sammlungen verwalten und das Prüfprotokoll lesen",
    "error.what_sources": "synchronisierte Ordner und Buckets verwalten",
    "error.not_in_role": "Sie sind kein {role} der Sammlung {collection}: Bitten Sie einen "
    "Administrator um Zugriff.",
    "role.reader": "Leser",
    "role.editor": "Bearbeiter",
    "role.admin": "Administrator",
    "error.no_identity": "Diese Anfrage trägt keine Identität vom Anmelde-Proxy "
    "({user_header} / {email_header}): Sie wird abgelehnt.",
    "error.no_claims": "Der Identitätsanbieter hat keine E-Mail-Adresse, keinen Benutzernamen "
    "und kein Subjekt geliefert.",
    "error.collection_name": "{name} ist kein gültiger Sammlungsname: Verwenden Sie 1-64 "
    "Buchstaben, Ziffern, Leerzeichen, Punkte, Bindestriche oder Unterstriche, beginnend mit "
    "einem Buchstaben oder einer Ziffer.",
    "error.member_name": "{name} ist kein Benutzer- oder Gruppenname.",
    "error.no_thread": "Es gibt keine Unterhaltung {id} von Ihnen: Sie wurde gelöscht, oder der "
    "Link gehört jemand anderem.",
    "error.no_turn": "Diese Unterhaltung hat keine Antwort Nummer {index}.",
    "error.thread_full": "Diese Unterhaltung hat {limit} Antworten erreicht: Beginnen Sie eine "
    "neue.",
    "error.no_title": "Eine Unterhaltung braucht einen Titel: Geben Sie zuerst einen ein.",
    "error.verdict": "Ein Urteil ist 'up' oder 'down', nicht {verdict}.",
    "error.not_page_number": "{part} ist keine Seitenzahl: Geben Sie Seiten wie 12, 14-15 ein.",
    "error.not_page_range": "{part} ist kein Seitenbereich dieses Dokuments.",
    "error.no_pages_marked": "Markieren Sie mindestens eine Seite, die die richtige Antwort "
    "enthält.",
    "error.not_marked_wrong": "Nur eine als falsch markierte Antwort wird zu einer "
    "Auswertungsfrage.",
    "error.document_gone": "Dieses Dokument ist nicht mehr im Register.",
    "error.nothing_marked": "Markieren Sie die Seiten (oder Abschnitte), die die richtige "
    "Antwort enthalten.",
    "error.pages_beyond": "{name} hat {total} Seiten, nicht {page}.",
    "error.not_your_question": "Nur wer eine Frage gespeichert hat, oder ein Administrator, "
    "darf sie entfernen.",
    "error.patterns": "Zu viele oder zu lange {what}-Muster (höchstens {count} mit je {chars} "
    "Zeichen).",
    "error.patterns_include": "Einschluss",
    "error.patterns_exclude": "Ausschluss",
    "error.source_kind": "Eine Quelle ist ein Ordner oder ein S3-Bucket, nicht {kind}.",
    "error.folder_no_endpoint": "Eine Ordnerquelle nimmt keinen Endpunkt und keine Zugangsdaten.",
    "error.credentials_both": "Nennen Sie die Umgebungsvariable oder die Datei der "
    "Zugangsdaten, nicht beides.",
    "error.credentials_env_name": "{name} ist kein Name einer Umgebungsvariable.",
    "error.store_no_sources": "Der Speicher {store} kann keinen Ordnern oder Buckets folgen "
    "(er führt keine Quellen).",
    "error.no_source": "Es gibt keine synchronisierte Quelle {id}.",
    "error.registry_inside": "Das Register {registry} liegt in {folder}: Legen Sie das "
    "Register außerhalb des Ordners ab, dem es folgt.",
    "error.bucket_url": "{url} ist keine Bucket-URL (s3://bucket/prefix).",
    "error.credentials_env": "Die Umgebungsvariable {name} muss für diese Quelle "
    "ACCESS_KEY_ID:SECRET_ACCESS_KEY enthalten (sie ist nicht gesetzt oder nicht in dieser "
    "Form).",
    "error.credentials_file": "Die Datei mit den Zugangsdaten {path} kann nicht gelesen "
    "werden: {reason}",
    "error.credentials_section": "Die Datei mit den Zugangsdaten {path} hat keinen Abschnitt "
    "[default] mit aws_access_key_id und aws_secret_access_key.",
    "error.needs_boto3": "S3-Quellen brauchen boto3 ({reason}): pip install -r requirements.txt.",
    "error.unsafe_key": "{name} ist ein unsicherer Schlüssel: nicht gelesen.",
    "error.folder_no_path": "Eine Ordnerquelle braucht den Pfad des Ordners.",
    "error.not_a_folder": "{path} ist kein Ordner, den dieser Server lesen kann.",
    "error.not_inside": "{path} ist kein Pfad innerhalb des Ordners.",
    "error.leads_outside": "{path} führt aus dem Ordner hinaus: nicht gelesen.",
    "error.over_file_limit": "{name} ist über der Dateigrößengrenze von {limit} MB.",
    "error.sync_busy": "Eine Synchronisierung der Quelle {id} läuft bereits; sie übernimmt "
    "jede Änderung, die sie findet, eine weitere ist also nicht nötig.",
    "error.registry_busy": "Das Register ist belegt (Sperre {lock} seit über {seconds} s "
    "gehalten).",
    "error.registry_not_json": "Das Register {path} ist kein gültiges JSON ({reason}). Es "
    "wurde nicht verändert; stellen Sie es aus einer Sicherung wieder her oder legen Sie es "
    "beiseite, um ein neues zu beginnen.",
    "error.registry_newer": "Das Register {path} wurde von einem neueren treerag geschrieben "
    "(Schema {version}); aktualisieren Sie treerag, um es zu öffnen.",
    "error.import_too_large": "Die Datei ist {size} MB groß, über der Importgrenze von {limit} MB.",
    "error.import_not_json": "Die Datei ist kein gültiges JSON: {reason}",
    "error.import_version": "Dieser Export hat die Version {version}; dieses treerag liest "
    "Version {known} oder älter.",
    "error.import_empty": "Der Export enthält keine Dokumente.",
    "error.import_not_export": "Dies ist kein treerag-Export: Erwartet wird eine Datei, die "
    "mit 'Exportieren' im Register erstellt wurde.",
    "error.slides_not_drawn": "Die Folien von {name} können nicht gezeichnet werden "
    "(LibreOffice ist nicht installiert, oder die Quelle ist weg): Die Stelle wird als Text "
    "gezeigt.",
    "error.no_pages_to_draw": "{name} hat keine Seiten zum Zeichnen: Die Stelle ist Text.",
    "error.source_not_stored": "Die Quelldatei {name} ist nicht mehr gespeichert, daher "
    "können ihre Seiten nicht gezeigt werden; stattdessen wird der zitierte Text gezeigt. "
    "Laden Sie sie erneut hoch, um die Seiten zu sehen.",
    "error.empty_question": "Die Frage ist leer: Geben Sie zuerst eine Frage ein.",
    "error.questions_not_json": "{source}, Zeile {line}: kein JSON ({reason}).",
    "error.questions_no_question": "{source}, Zeile {line}: keine 'question'.",
    "error.questions_pages": "{source}, Zeile {line}: 'evidence_pages' muss eine Liste von "
    "Seitenzahlen sein.",
    "error.questions_history": "{source}, Zeile {line}: 'history' muss eine Liste der "
    "früheren Fragen sein.",
    "error.questions_not_utf8": "{path} ist kein UTF-8-Text ({reason}).",
}
