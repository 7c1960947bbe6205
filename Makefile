# agentfmt — make targets. `make test` is what CI runs (see .ci/run).
GO ?= go
FUZZTIME ?= 30s
PKGS := ./...
STATICCHECK ?= v0.8.2

.PHONY: build test lint bench fuzz conformance demo man clean

build:
	$(GO) build -o bin/agentfmt .

test:
	$(GO) test -race $(PKGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK) $(PKGS)

# Benchmarks: Go benchmarks of every package, then the jq comparison script.
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)
	@if [ -x bench/compare.sh ]; then bench/compare.sh; fi

# Runs every fuzz target for FUZZTIME each.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
			echo "== $$pkg $$t"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -parallel 1 $$pkg || exit 1; \
		done; \
	done

# The real captures in ../shared/corpus.
conformance:
	$(GO) test -run 'TestCorpus' -v ./internal/conformance/

demo:
	$(GO) run . demo

# The manual pages (agentfmt.1, agentfmt-run.1, …), generated from the
# command tree by the hidden 'agentfmt man DIR'.
man:
	$(GO) run . man man


clean:
	rm -rf bin man
