// Package mcp holds the Model Context Protocol types of mcpscope's wire
// core: method names, lifecycle (initialize, server/discover), features,
// protocol versions, notifications, multi-round-trip input requests,
// interactive sessions (seed 002), roots, and the error-code names of each
// dialect, named in the context of the request they answer.
package mcp
