# make run: the bot with the token from .env; make demo: a whole game offline; make test: what CI runs.
# Each creates .venv with the project installed when it is missing (or pyproject.toml changed).
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run demo test

run: $(VENV)/.installed
	$(BIN)/boardroom run

demo: $(VENV)/.installed
	$(BIN)/boardroom demo cantstop --seed 7 --out boards

# the same commands as .ci/run after its set-up
test: $(VENV)/.installed
	. $(BIN)/activate && ruff check . && mypy && python -m pytest -p no:cacheprovider -n 3 --dist loadgroup

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@
