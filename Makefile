# mcpscope — build, test, benchmark.
GO        ?= go
PEERS     := testdata/peers
GOSDK     := github.com/modelcontextprotocol/go-sdk
GOSDK_V   := v1.8.0
MARK3     := github.com/mark3labs/mcp-go
MARK3_V   := v1.2.1
PEERBIN   := $(abspath $(PEERS)/bin)

.PHONY: build test bench fuzz-smoke peers tools vet clean

build:
	$(GO) build -o mcpscope .

FUZZTIME  ?= 10s

## test: install what the tests need, then run every test: once under the
## race detector, every fuzz target for FUZZTIME, then once without the race
## detector (the tests too slow under -race run only there).
test: peers tools
	$(GO) vet ./...
	$(GO) test -race ./...
	$(MAKE) --no-print-directory fuzz-smoke
	$(GO) test ./...

## peers: third-party MCP servers and clients, pinned by version.
peers: $(PEERS)/node_modules/.package-lock.json \
       $(PEERBIN)/go-sdk/everything $(PEERBIN)/go-sdk/everything-server \
       $(PEERBIN)/go-sdk/sse \
       $(PEERBIN)/mark3labs/everything $(PEERBIN)/mark3labs/conformance \
       $(PEERBIN)/mark3labs/dynamic_path

$(PEERS)/node_modules/.package-lock.json: $(PEERS)/package.json $(PEERS)/package-lock.json
	cd $(PEERS) && npm ci --no-audit --no-fund

$(PEERBIN)/go-sdk/everything:
	GOBIN=$(PEERBIN)/go-sdk $(GO) install $(GOSDK)/examples/server/everything@$(GOSDK_V)

$(PEERBIN)/go-sdk/everything-server:
	GOBIN=$(PEERBIN)/go-sdk $(GO) install $(GOSDK)/conformance/everything-server@$(GOSDK_V)

$(PEERBIN)/go-sdk/sse:
	GOBIN=$(PEERBIN)/go-sdk $(GO) install $(GOSDK)/examples/server/sse@$(GOSDK_V)

$(PEERBIN)/mark3labs/everything:
	GOBIN=$(PEERBIN)/mark3labs $(GO) install $(MARK3)/examples/everything@$(MARK3_V)

$(PEERBIN)/mark3labs/conformance:
	GOBIN=$(PEERBIN)/mark3labs $(GO) install $(MARK3)/examples/conformance@$(MARK3_V)

$(PEERBIN)/mark3labs/dynamic_path:
	GOBIN=$(PEERBIN)/mark3labs $(GO) install $(MARK3)/examples/dynamic_path@$(MARK3_V)

## tools: programs the end-to-end tests drive (tmux).
tools:
	@command -v tmux >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq tmux; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq tmux; fi; }

## bench: Go benchmarks and the comparisons against other MCP clients.
bench: peers
	$(GO) test -run '^$$' -bench . -benchmem ./capture/... ./proto/... ./hexview/... ./ui/... ./transports/... ./internal/sse/... ./bench/...

## fuzz-smoke: every fuzz target for FUZZTIME; a finding (a failing input
## written) fails the run. The fuzz cache is cleared first: a corpus grown by
## earlier runs could take longer than FUZZTIME to replay. go test sometimes
## reports "context deadline exceeded" when FUZZTIME runs out with no
## finding; that is said and not counted as a failure.
fuzz-smoke:
	@$(GO) clean -fuzzcache
	@n=0; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; n=$$((n+1)); \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg > fuzz.log 2>&1 || \
	      if grep -q 'context deadline exceeded' fuzz.log && ! grep -q 'Failing input written' fuzz.log; then \
	        echo "  (go test ended the run at its deadline without a finding)"; \
	      else cat fuzz.log; rm -f fuzz.log; exit 1; fi; \
	  done; \
	done; rm -f fuzz.log; echo "fuzz-smoke: $$n targets, $(FUZZTIME) each, no finding"

vet:
	$(GO) vet ./...

clean:
	rm -rf mcpscope $(PEERS)/node_modules $(PEERS)/bin
