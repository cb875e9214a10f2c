package cli

import (
	"strings"
)

// fakeMcpscope is the mcpscope the in-process wrap tests write into
// entries (the test binary is not one).
const fakeMcpscope = "/opt/mcpscope/bin/mcpscope"

// wrapFixture is a host config file in its documented shape, written
// oddly, and the entries of it a test wraps.
type wrapFixture struct {
	host string
	// rel is the file's path under the home.
	rel  string
	text string
	// entries: name → what the wrapped entry's proxy runs (the original
	// command line, or the bridge's arguments before and including the URL).
	entries map[string][]string
}

// crlf turns the line endings of s into CRLF.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// wrapFixtures are one file per host: Claude Desktop, Claude Code (a user
// entry, a project's entry and a remote one), Cursor (no args, a remote
// entry with headers), VS Code (a byte order mark, CRLF, tabs, // and
// /* */ comments, trailing commas, inputs, a legacy SSE entry) and
// Windsurf (serverUrl).
func wrapFixtures(home string) []wrapFixture {
	return []wrapFixture{
		{host: "claude-desktop", rel: ".config/Claude/claude_desktop_config.json", text: `{
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": [ "-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop" ],
            "env": {"DEBUG": "1"}
        },
        "weather":{"command":"uvx","args":["weather-mcp"]}
    },
    "globalShortcut": ""
}
`, entries: map[string][]string{
			"filesystem": {"--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"},
			"weather":    {"--", "uvx", "weather-mcp"},
		}},
		{host: "claude-code", rel: ".claude.json", text: `{
  "numStartups": 42,
  "mcpServers": {
    "memory": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-memory"],
      "env": {}
    },
    "linear": {
      "type": "http",
      "url": "https://mcp.linear.app/mcp",
      "headers": {
        "Authorization": "Bearer ${LINEAR_TOKEN}"
      }
    }
  },
  "projects": {
    "` + home + `/project": {
      "allowedTools": [],
      "mcpServers": {
        "db": {
          "type": "stdio",
          "command": "node",
          "args": ["./tools/db-mcp.js", "--url", "${DATABASE_URL:-postgres://localhost/dev}"]
        }
      }
    }
  }
}`, entries: map[string][]string{
			"memory": {"--", "npx", "-y", "@modelcontextprotocol/server-memory"},
			"linear": {"--header", "Authorization: Bearer ${LINEAR_TOKEN}", "https://mcp.linear.app/mcp"},
			"db":     {"--", "node", "./tools/db-mcp.js", "--url", "${DATABASE_URL:-postgres://localhost/dev}"},
		}},
		{host: "cursor", rel: ".cursor/mcp.json", text: `{
  // Cursor's global servers
  "mcpServers": {
    "local-tool": { "command": "/usr/local/bin/local-tool" },
    "context7": {
      "url": "https://mcp.context7.com/mcp",
      "headers": { "CONTEXT7_API_KEY": "${env:CONTEXT7_KEY}" }
    }
  }
}
`, entries: map[string][]string{
			"local-tool": {"--", "/usr/local/bin/local-tool"},
			"context7":   {"--header", "CONTEXT7_API_KEY: ${env:CONTEXT7_KEY}", "https://mcp.context7.com/mcp"},
		}},
		{host: "vscode", rel: ".config/Code/User/mcp.json", text: "\uFEFF" + crlf(`{
	// inputs VS Code asks for
	"inputs": [
		{ "type": "promptString", "id": "token", "description": "API token", "password": true, },
	],
	"servers": {
		/* a stdio server */
		"everything": {
			"type": "stdio",
			"command": "npx", // runs the reference server
			"args": [
				"-y",
				"@modelcontextprotocol/server-everything",
			],
		},
		"legacy": {
			"type": "sse",
			"url": "http://127.0.0.1:3001/sse", /* old transport */
			"headers": {"X-Token": "${input:token}"},
		},
	},
}
`), entries: map[string][]string{
			"everything": {"--", "npx", "-y", "@modelcontextprotocol/server-everything"},
			"legacy":     {"--transport", "sse", "--header", "X-Token: ${input:token}", "http://127.0.0.1:3001/sse"},
		}},
		{host: "windsurf", rel: ".codeium/windsurf/mcp_config.json", text: `{"mcpServers":{
  "github":{"command":"docker","args":["run","-i","--rm","ghcr.io/github/github-mcp-server"],"env":{"GITHUB_PERSONAL_ACCESS_TOKEN":"ghp_fixture"}},
  "figma":{"serverUrl":"https://mcp.figma.com/mcp"}
}}`, entries: map[string][]string{
			"github": {"--", "docker", "run", "-i", "--rm", "ghcr.io/github/github-mcp-server"},
			"figma":  {"https://mcp.figma.com/mcp"},
		}},
	}
}
