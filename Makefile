# mcpscope — build, test, benchmark.
GO        ?= go
PEERS     := testdata/peers
GOSDK     := github.com/modelcontextprotocol/go-sdk
GOSDK_V   := v1.8.0
MARK3     := github.com/mark3labs/mcp-go
MARK3_V   := v1.2.1
PEERBIN   := $(abspath $(PEERS)/bin)

.PHONY: build test check bench fuzz-smoke peers tools vet clean

build:
	$(GO) build -o mcpscope .

FUZZTIME       ?= 10s
FUZZTIME_TOKEN ?= 1s

## test: install what the tests need, vet, then run every test once.
test: peers tools
	$(GO) vet ./...
	$(GO) test ./...

## check: what CI runs: make test, then every test under the race detector
## (which multiplies a package's time: its bound is 20 minutes, not go
## test's 10), then the fuzz smoke.
check: test
	$(GO) test -race -timeout 20m ./...
	$(MAKE) --no-print-directory fuzz-smoke

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
	$(GO) test -run '^$$' -bench . -benchmem ./capture/... ./proto/... ./hexview/... ./ui/... ./transports/... ./internal/app/sse/... ./proxy/... ./bench/...

## fuzz-smoke: every fuzz target once; the decoders of untrusted input named
## in testdata/fuzz-untrusted.txt for FUZZTIME each, the others for
## FUZZTIME_TOKEN (see .ci/fuzz-smoke).
fuzz-smoke:
	GO='$(GO)' FUZZTIME=$(FUZZTIME) FUZZTIME_TOKEN=$(FUZZTIME_TOKEN) .ci/fuzz-smoke

vet:
	$(GO) vet ./...

clean:
	rm -rf mcpscope $(PEERS)/node_modules $(PEERS)/bin
