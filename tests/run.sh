#!/usr/bin/env bash
# Installs everything the tests need, then runs them all: lint, format check, unit, app
# (AppTest) and browser (Playwright + Debian Chromium) tests. Extra args go to pytest.
#
# --quick: the quick tier only (pytest -m quick: unit and in-process tests, mypy over the
# core), with no system package installed or needed: Python's requirements, ruff, then the
# tests that need no browser, no system program and no shared data (tests/conftest.py
# sets the tiers). Everything else is the full run, as CI calls it (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

quick=""
if [ "${1:-}" = "--quick" ]; then
  quick=1
  shift
fi

if [ -z "$quick" ]; then

# System programs the tests exercise for real: Chromium (browser tests), Tesseract (OCR,
# with German's data), PostgreSQL (the database store: the tests start their own server with
# initdb + pg_ctl), nginx (the sign-in proxy in front of the app: the tests start their own
# on loopback), the Debian FAQ in its translations (real documents in ten languages:
# test_languages_real), LibreOffice (legacy Office files converted: test_readers_office).
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
command -v tesseract >/dev/null || missing="$missing tesseract-ocr"
# German's OCR data (1.5 MB: a scan read in its own language) and the font the OCR
# language tests print their scans in.
compgen -G "/usr/share/tesseract-ocr/*/tessdata/deu.traineddata" >/dev/null \
  || missing="$missing tesseract-ocr-deu"
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf ] || missing="$missing fonts-dejavu-core"
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null \
  || missing="$missing postgresql"
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing="$missing nginx"
for lang in de fr ja zh-cn; do
  [ -e "/usr/share/doc/debian/FAQ/debian-faq.$lang.txt.gz" ] || missing="$missing debian-faq-$lang"
done
[ -e /usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz ] || missing="$missing debian-faq"
# LibreOffice converts legacy .doc/.xls/.ppt/.rtf (test_readers_office's legacy tests).
if ! command -v soffice >/dev/null; then
  missing="$missing libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui"
fi
if [ -n "$missing" ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  # Install only: no system nginx or PostgreSQL cluster is started (the tests start their
  # own). A policy-rc.d that refuses is the Debian way; one already there is kept.
  policy=/usr/sbin/policy-rc.d
  made_policy=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo_cmd tee "$policy" >/dev/null
    $sudo_cmd chmod 755 "$policy"
    made_policy=1
  fi
  $sudo_cmd apt-get update -qq
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  [ -z "$made_policy" ] || $sudo_cmd rm -f "$policy"
fi
fi  # not --quick
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt

.venv/bin/ruff check .
.venv/bin/ruff format --check .
if [ -n "$quick" ]; then
  # One worker per core (pytest-xdist): the quick tier's tests share no port, file or state.
  exec .venv/bin/python -m pytest -q -p no:cacheprovider -m quick -n auto "$@"
fi
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
