// Package httphead decodes and annotates HTTP heads as mcpscope
// captures them: request and response heads, secret header and query
// redaction, status classification, the legacy SSE endpoint, and the
// fields of server-sent event lines.
package httphead
