package mcpconfig

import (
	"os"
	"path/filepath"
)

// Candidate is a config file mcpscope looks for, with its format and the
// folder ${workspaceFolder} stands for.
type Candidate struct {
	Path      string
	Format    Format
	Workspace string
}

// Env is what locating the config files depends on; tests fill it in
// instead of reading the user's own.
type Env struct {
	// GOOS picks the per-OS paths: "darwin", "windows", else Linux's.
	GOOS string
	// Getenv reads HOME, XDG_CONFIG_HOME and APPDATA (os.Getenv).
	Getenv func(string) string
	// Home is the user's home folder; Cwd the current directory.
	Home, Cwd string
}

// appConfigDir is where desktop applications keep their settings:
// ~/Library/Application Support, %APPDATA%, or $XDG_CONFIG_HOME (~/.config).
func (e Env) appConfigDir() string {
	switch e.GOOS {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support")
	case "windows":
		if d := e.Getenv("APPDATA"); d != "" {
			return d
		}
		return filepath.Join(e.Home, "AppData", "Roaming")
	}
	if d := e.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.Home, ".config")
}

// projectFiles are the files a project holds, relative to its folder.
var projectFiles = []struct {
	rel    string
	format Format
}{
	{".mcp.json", ClaudeCode},
	{filepath.Join(".cursor", "mcp.json"), Cursor},
	{filepath.Join(".vscode", "mcp.json"), VSCode},
}

// Candidates lists the config files mcpscope reads, in a fixed order: the
// user's files of each tool, then the nearest project file of each kind
// from the current directory up to the home folder (or the root), then the
// Inspector's mcp.json and a registry server.json in the current directory.
func (e Env) Candidates() []Candidate {
	app := e.appConfigDir()
	list := []Candidate{
		{filepath.Join(app, "Claude", "claude_desktop_config.json"), ClaudeDesktop, e.Cwd},
		{filepath.Join(e.Home, ".claude.json"), ClaudeCode, e.Cwd},
		{filepath.Join(e.Home, ".cursor", "mcp.json"), Cursor, e.Cwd},
		{filepath.Join(app, "Code", "User", "mcp.json"), VSCode, e.Cwd},
		{filepath.Join(e.Home, ".codeium", "windsurf", "mcp_config.json"), Windsurf, e.Cwd},
	}
	seen := map[string]bool{}
	for _, c := range list {
		seen[c.Path] = true
	}
	for _, pf := range projectFiles {
		if dir, ok := nearest(e.Cwd, e.Home, pf.rel); ok && !seen[filepath.Join(dir, pf.rel)] {
			list = append(list, Candidate{filepath.Join(dir, pf.rel), pf.format, dir})
		}
	}
	return append(list,
		Candidate{filepath.Join(e.Cwd, "mcp.json"), Inspector, e.Cwd},
		Candidate{filepath.Join(e.Cwd, "server.json"), Registry, e.Cwd},
	)
}

// nearest returns the folder, from dir up to stop or the root, that holds
// rel.
func nearest(dir, stop, rel string) (string, bool) {
	for dir != "" {
		if _, err := os.Stat(filepath.Join(dir, rel)); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if dir == stop || parent == dir {
			return "", false
		}
		dir = parent
	}
	return "", false
}

// FormatOf guesses the format of a file given with --config from its name
// and folder.
func FormatOf(path string) Format {
	base, parent := filepath.Base(path), filepath.Base(filepath.Dir(path))
	switch {
	case base == "claude_desktop_config.json":
		return ClaudeDesktop
	case base == ".mcp.json" || base == ".claude.json":
		return ClaudeCode
	case base == "mcp_config.json":
		return Windsurf
	case base == "server.json":
		return Registry
	case parent == ".cursor":
		return Cursor
	case parent == ".vscode" || parent == "User":
		return VSCode
	}
	return Inspector
}
