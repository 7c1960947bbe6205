# agentfmt — make targets. `make test` is what CI runs (see .ci/run).
GO ?= go
FUZZTIME ?= 30s
PKGS := ./...
STATICCHECK ?= v0.8.2

# The version, commit and build date that 'agentfmt version' shows, for
# builds where Go's own VCS stamping is off (a git worktree, GOFLAGS=-buildvcs=false).
PKG := github.com/agentfmt/agentfmt/cmd
VERSION ?= $(shell git describe --tags --dirty 2>/dev/null || echo devel)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -X $(PKG).version=$(VERSION) -X $(PKG).commit=$(COMMIT) -X $(PKG).date=$(DATE)

.PHONY: build install test lint bench fuzz conformance demo man clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/agentfmt .

# Installs agentfmt into $(go env GOBIN), else $(go env GOPATH)/bin.
install:
	$(GO) install -ldflags "$(LDFLAGS)" .

test:
	$(GO) test -race $(PKGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	cd tools/vt && $(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK) -checks all $(PKGS)

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
	$(GO) test -run 'TestCorpus' -v ./cmd/

demo:
	$(GO) run . demo

# The manual pages (agentfmt.1, agentfmt-run.1, …), generated from the
# command tree by 'agentfmt man DIR' (internal/manpage).
man:
	$(GO) run . man man


clean:
	rm -rf bin man
