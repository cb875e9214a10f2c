// Package tokenstore keeps mcpscope's OAuth authorizations: one Entry per
// authorization server (issuer) and MCP server (resource). The secrets go
// to the OS keyring where there is one, the rest to tokens.json, a 0600
// file in the user's config directory; without a keyring the file holds
// everything.
package tokenstore
