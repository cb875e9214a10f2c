// Package mcpconfig reads the MCP servers users have already configured for
// other tools — Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, the
// MCP Inspector — and registry server.json files, so mcpscope can connect
// to one by its name. Values are kept as written; Resolve expands their
// variables the way the file's own tool does when a server is used.
package mcpconfig

// Format names the tool whose config file a server came from.
type Format string

// The formats mcpscope reads.
const (
	ClaudeDesktop Format = "claude-desktop"
	ClaudeCode    Format = "claude-code"
	Cursor        Format = "cursor"
	VSCode        Format = "vscode"
	Windsurf      Format = "windsurf"
	Inspector     Format = "inspector"
	Registry      Format = "registry"
)

// dialect is the variable syntax of a format.
func (f Format) dialect() Dialect {
	switch f {
	case ClaudeCode:
		return ShellVariables
	case Cursor, VSCode, Windsurf, Registry:
		return EditorVariables
	}
	return NoVariables
}

// comments reports whether the format's files may hold comments and
// trailing commas (JSONC).
func (f Format) comments() bool { return f == VSCode || f == Cursor }

// Pair is one environment variable or header, in the file's order
// (sorted by name where the file holds an object).
type Pair struct{ Name, Value string }

// Input is a value the user is asked for when a server uses ${input:id}
// (a VS Code input, or a registry variable without a value).
type Input struct {
	ID, Description string
	// Password: read without echo.
	Password bool
	// Default is used when the user gives nothing.
	Default string
}

// Server is one configured MCP server, its values as written in the file.
type Server struct {
	Name string
	// Source is the file the server came from; Format its tool.
	Source string
	Format Format
	// Transport is "stdio", "http" (Streamable HTTP), "sse" or "ws".
	Transport string

	// Command, Args, Env, EnvFile and Cwd start a stdio server.
	Command string
	Args    []string
	Env     []Pair
	EnvFile string
	Cwd     string

	// URL and Headers reach a remote server.
	URL     string
	Headers []Pair

	// Wrapped: the entry runs the server through `mcpscope proxy` (see
	// ParseProxied); Command, Args, URL and Headers are then the proxied
	// server's, and ProxyName is the proxy's session name ("" when the
	// entry gives none).
	Wrapped   bool
	ProxyName string

	// Inputs are the file's input definitions, by id.
	Inputs map[string]Input
	// Workspace is ${workspaceFolder}: the project folder of a project
	// file, else the current directory.
	Workspace string
}
