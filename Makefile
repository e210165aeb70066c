# aqmlab: `make demo` and `make test` are the two commands a new machine needs.
SHELL := /bin/bash
VENV := .venv
PYTHON := $(VENV)/bin/python
STAMP := $(VENV)/.deps-installed
export VIRTUAL_ENV := $(abspath $(VENV))
export PATH := $(abspath $(VENV))/bin:$(HOME)/.cargo/bin:$(PATH)
# pip says nothing unless something fails (maturin develop calls it too).
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: setup build test test-rust test-python test-slow demo bench bench-ns3 validate-ns3 validate-ns3-quick validate-ns2 validate-ns2-quick bench-ns2 lint lock clean reproduce-full verdicts pages

# Create the virtual environment and install the locked Python dependencies: requirements.lock
# pins everything `make` uses (runtime, test, maturin, ruff) for Python 3.10 to 3.13.
$(STAMP): pyproject.toml requirements.lock
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -r requirements.lock
	touch $(STAMP)

setup: $(STAMP)

# Regenerate requirements.lock after changing the dependencies in pyproject.toml.
lock: setup
	$(PYTHON) -m pip install --quiet uv
	$(VENV)/bin/uv pip compile pyproject.toml --extra test --extra dev --universal --python-version 3.10 \
		--annotation-style line --custom-compile-command "make lock" --quiet -o requirements.lock

# Build the Rust engine in release mode into the venv (incremental: quick when unchanged).
build: setup
	PIP_QUIET=1 maturin develop --release --quiet
	$(PYTHON) -c "import aqmlab._engine"

test: build test-rust test-python

test-rust:
	cargo test --quiet -p aqmlab-engine

test-python: build
	$(PYTHON) -m pytest -q

# Long reproduction runs, on demand only.
test-slow: build
	$(PYTHON) -m pytest -q -m slow

# Every reproduction's full version (packet-level claims over 5 seeds), each recorded as soon as
# it finishes into docs/reproduction/seedNNN.md, with the counts of docs/reproduction.md
# recomputed from the pages. Hours on 2 cores: on demand, never in CI. A subset:
# make reproduce-full IDS="seed000-fig6 seed000-fig7".
reproduce-full: build
	for id in $(or $(IDS),all); do \
		nice -n 10 $(PYTHON) -m aqmlab.cli reproduce $$id --out aqmlab-out/reproduce-full \
			--record-into docs/reproduction --index docs/reproduction.md || exit 1; \
	done

# Regenerate what is generated from the recorded pages: each page's summary, the counts of
# docs/reproduction.md and the published verdicts docs/reproduction/verdicts.json (issue 26).
pages: build
	$(PYTHON) -c "from aqmlab.reproduce.pages import main; main()" docs/reproduction

# Rewrite tests/reproduce/verdicts.json from every quick reproduction (a deliberate change of
# verdicts: say why in the commit message). One id: aqmlab reproduce ID --quick --update-verdicts.
verdicts: build
	$(PYTHON) -m aqmlab.cli reproduce all --quick --out aqmlab-out/reproduce-quick --update-verdicts

demo: build
	$(PYTHON) -m aqmlab.cli demo --out aqmlab-out/demo --force

bench: build
	$(PYTHON) benchmarks/dumbbell-60/bench.py
	$(PYTHON) benchmarks/dumbbell-60/bench.py --scenario benchmarks/large-scale/scenario.toml --runs 3 --no-python

# ns-3 3.44 from PyPI in its own venv, then dumbbell-60 in both simulators side by side (~6 min).
bench-ns3: build
	bash benchmarks/ns3/setup.sh
	$(PYTHON) benchmarks/dumbbell-60/bench.py --runs 5 --ns3

# The ns-3 agreement matrix (issue 9): 16 scenarios and their min-RTO-1-s twins in both
# simulators, timed; rewrites benchmarks/ns3/agreement.json and docs/validation.md's tables
# (~75 min on 2 cores; resumes where it stopped, ARGS="--force" reruns).
validate-ns3: build
	bash benchmarks/ns3/run_all.sh $(ARGS)

# Eight telling rows of that matrix at 40 s simulated, in both simulators (issue 15): fails if
# one differs beyond the thresholds. ns-3 runs come from benchmarks/ns3/build/ns3-cache when
# their spec was run before (ns-3 is deterministic); ARGS="--fresh-ns3" runs them all (the
# timing in docs/validation.md). Writes benchmarks/ns3/agreement-quick.json.
validate-ns3-quick: build
	bash benchmarks/ns3/run_all.sh --quick $(ARGS)

# The ns-2 2.35 agreement matrix (issue 27): 45 rows (6 TCPs x DropTail, RED packet and byte
# mode x RTT 20/200 ms, access-limited, ECN, parking lot), 3 seeds in each simulator, ns-2 runs
# from benchmarks/ns2/build/ns2-cache when their program ran before (ARGS="--fresh-ns2"); resumes
# then the one-factor experiment rows; resumes (ARGS="--force" reruns); writes
# benchmarks/ns2/agreement.json, experiments.json and docs/validation-ns2.md's tables.
validate-ns2: build
	bash benchmarks/ns2/setup.sh
	nice -n 5 $(PYTHON) benchmarks/ns2/agreement.py $(ARGS)
	nice -n 5 $(PYTHON) benchmarks/ns2/agreement.py --experiments $(ARGS)
	for v in karn tick10ms; do nice -n 5 $(PYTHON) benchmarks/ns2/agreement.py --variant $$v \
		--only sack-red-rtt200-aqmlab-defaults newreno-droptail-rtt200-aqmlab-defaults cubic-red-rtt200-aqmlab-defaults \
		cubic-droptail-rtt20-aqmlab-defaults || exit 1; done
	nice -n 5 $(PYTHON) benchmarks/ns2/agreement.py --variant linux-reno \
		--only sack-droptail-rtt20-aqmlab-defaults sack-red-rtt20-aqmlab-defaults sack-red-rtt200-aqmlab-defaults \
		sack-droptail-rtt200-aqmlab-defaults
	$(PYTHON) benchmarks/ns2/report.py --write

# Eight telling rows of that matrix, 3 seeds each, rerun every time: fails on a disagreement.
validate-ns2-quick: build
	bash benchmarks/ns2/setup.sh
	nice -n 5 $(PYTHON) benchmarks/ns2/agreement.py --quick --force $(ARGS)

# ns-2 against aqmlab (engine, simulate() warm, whole process) on dumbbell-60 and seed 000's
# Fig. 6 at RTT 200 ms, medians of 5, interleaved; writes benchmarks/ns2/bench.json.
bench-ns2: build
	bash benchmarks/ns2/setup.sh
	nice -n 5 $(PYTHON) benchmarks/ns2/bench.py --runs 5

lint: setup
	cargo fmt --all -- --check
	cargo clippy --quiet -p aqmlab-engine -p aqmlab-py -- -D warnings
	$(PYTHON) -m ruff check python tests benchmarks
	$(PYTHON) -m ruff format --check python tests benchmarks

clean:
	rm -rf $(VENV) target aqmlab-out
