// Package bench holds mcpscope's comparative benchmarks: each one measures
// mcpscope and a baseline (another MCP client, against the same server) in
// the same run and reports the ratio, so the figures do not depend on the
// machine. Run them with `make bench`.
package bench
