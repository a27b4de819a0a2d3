# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test quick lint typecheck system-deps venv clean messages

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev,ai]'
	touch $(STAMP)

venv: $(STAMP)

## System packages the tests and the fault drill need (PostgreSQL, Chromium, nginx); idempotent.
system-deps:
	@bash scripts/system-deps.sh

HOST ?= 127.0.0.1
PORT ?= 8000
DB ?= sqlite:///splash.db
## The play server with its SQLite store: open http://$(HOST):$(PORT)/ in a browser.
run: $(STAMP)
	$(BIN)/splash serve --host $(HOST) --port $(PORT) --db $(DB)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples scripts
	$(BIN)/ruff format --check src tests bench examples scripts

typecheck: $(STAMP)
	$(BIN)/mypy src tests bench examples scripts

## Everything: install, lint, type-check, every test.
test: $(STAMP) system-deps lint typecheck
	SPLASH_TEST_POSTGRES_URL="$${SPLASH_TEST_POSTGRES_URL:-$$(bash scripts/test-postgres.sh)}" \
		$(BIN)/pytest -n 2 -q -m "not deep"

## A quicker loop for development: the tests not marked slow.
quick: $(STAMP)
	$(BIN)/pytest -n 2 -q -m "not slow and not browser and not deep"

LOCALE := src/splash/locale
## Extract every message into the template and bring each catalogue up to date.
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k message -k Message --no-location --sort-output \
		--project splash-games -o $(LOCALE)/splash.pot src/splash
	for loc in en fr cs it; do \
		if [ -f $(LOCALE)/$$loc/LC_MESSAGES/splash.po ]; then \
			$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -D splash -i $(LOCALE)/splash.pot -d $(LOCALE) -l $$loc; \
		else \
			$(BIN)/pybabel init -D splash -i $(LOCALE)/splash.pot -d $(LOCALE) -l $$loc; \
		fi; \
	done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
