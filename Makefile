# The two commands a new user needs are `make run` and `make test` (README).
.PHONY: run install build test bench bench-deps clean soak fuzz

run: install build
	node scripts/quickstart.mjs

install:
	npm ci --no-audit --no-fund

build:
	npm run build

test:
	npm test

# BENCH_ARGS chooses scenario, duration, workers, pinning: see bench/README.md.
bench: build
	node dist/bench/run.js $(BENCH_ARGS)

# The soak (issue 15): SOAK_SECS of mixed load, RSS and open fds sampled every 30 s, a verdict.
SOAK_SECS ?= 1800
soak: build
	node dist/bench/run.js --scenario soak --duration $(SOAK_SECS) $(BENCH_ARGS)

# The long fuzz run (issue 15): every codec and ingress property with fresh seeds for FUZZ_MINUTES.
FUZZ_MINUTES ?= 10
fuzz: build
	node dist/bench/fuzz/run.js --minutes $(FUZZ_MINUTES)

bench-deps:
	apt-get update && apt-get install -y wrk nginx-light

clean:
	rm -rf dist
