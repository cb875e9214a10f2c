// Package peertest locates the third-party MCP servers that mcpscope's tests
// talk to. `make peers` installs them, pinned by version, under
// testdata/peers; a test that needs one that is missing fails with the
// command that installs it.
package peertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Root returns the repository root: the nearest folder above this source
// file that holds go.mod, wherever the package sits in the tree.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return filepath.Dir(file)
		}
		dir = up
	}
}

// Dir returns testdata/peers under the repository root.
func Dir() string { return filepath.Join(Root(), "testdata", "peers") }

func need(t testing.TB, path, what string) string {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s is not installed (%s missing): run `make peers`", what, path)
	}
	return path
}

// Node returns the path of the node binary.
func Node(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH: the TypeScript peers need Node.js 20 or later")
	}
	return p
}

// TSEverything returns the argv of @modelcontextprotocol/server-everything
// in the given mode ("stdio", "streamableHttp", "sse").
func TSEverything(t testing.TB, mode string) []string {
	t.Helper()
	js := need(t, filepath.Join(Dir(), "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		"the TypeScript reference server")
	return []string{Node(t), js, mode}
}

// GoSDKEverything returns the argv of the official Go SDK's everything example (stdio).
func GoSDKEverything(t testing.TB) []string {
	t.Helper()
	return []string{need(t, filepath.Join(Dir(), "bin", "go-sdk", "everything"), "the Go SDK everything server")}
}

// GoSDKConformance returns the path of the Go SDK conformance everything-server;
// callers add its flags.
func GoSDKConformance(t testing.TB) string {
	t.Helper()
	return need(t, filepath.Join(Dir(), "bin", "go-sdk", "everything-server"), "the Go SDK conformance server")
}

// Mark3labsEverything returns the argv of mark3labs/mcp-go's everything example (stdio).
func Mark3labsEverything(t testing.TB) []string {
	t.Helper()
	return []string{need(t, filepath.Join(Dir(), "bin", "mark3labs", "everything"), "the mark3labs everything server")}
}

// InspectorCLI returns the argv of the official MCP Inspector in CLI mode.
func InspectorCLI(t testing.TB) []string {
	t.Helper()
	js := need(t, filepath.Join(Dir(), "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js"),
		"the MCP Inspector")
	return []string{Node(t), js, "--cli"}
}

// ConformanceHarness returns the argv of the official MCP conformance
// harness (@modelcontextprotocol/conformance); callers add its command
// (client, list…) and flags. On Node.js before 22 it runs with the
// preload that gives it the fs.globSync it imports.
func ConformanceHarness(t testing.TB) []string {
	t.Helper()
	js := need(t, filepath.Join(Dir(), "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"),
		"the MCP conformance harness")
	return []string{Node(t), "--import", filepath.Join(Dir(), "node20-globsync.mjs"), js}
}
