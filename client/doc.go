// Package client is mcpscope's MCP session engine. It is transport- and
// UI-agnostic: it numbers requests, tracks them until answered, negotiates
// the protocol era (server/discover for 2026-07-28, else initialize),
// carries the per-request _meta of the modern era, runs multi round-trip
// (input_required) retries, enforces idle and hard timeouts with
// notifications/cancelled, answers server→client requests (ping itself,
// elicitation, sampling and roots through a ServerRequestHandler) and fans
// notifications out to subscribers. The headless CLI and the TUI drive the
// same Session.
package client
