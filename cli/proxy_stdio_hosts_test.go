package cli

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// stdioPeer is a real stdio server and the call a host makes of it.
type stdioPeer struct {
	name string
	argv func(testing.TB) []string
	call hostCall
	arg  string // the call's argument for the Inspector
}

var stdioPeers = []stdioPeer{
	{"ts", func(t testing.TB) []string { return peertest.TSEverything(t, "stdio") },
		hostCall{"echo", map[string]any{"message": "hi"}}, "message=hi"},
	{"gosdk", peertest.GoSDKEverything, hostCall{"greet", map[string]any{"name": "hi"}}, "name=hi"},
}

// TestProxyStdioGoSDKHost: the official Go SDK client, as the host, gets
// through the proxy the same tools and the same call result as straight
// from the server, for the TypeScript and the Go SDK servers; the
// recording holds, byte for byte and in order, every line the host wrote
// and every line the server wrote.
func TestProxyStdioGoSDKHost(t *testing.T) {
	t.Parallel()
	for _, p := range stdioPeers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			server := p.argv(t)
			direct := goSDKHost(t, server, p.call)
			rec := filepath.Join(t.TempDir(), "proxied.jsonl")
			proxied := goSDKHost(t, proxyArgv(t, "gosdk-host-"+p.name, rec, server), p.call)
			if proxied.tools != direct.tools {
				t.Errorf("tools/list through the proxy:\n%s\nstraight:\n%s", proxied.tools, direct.tools)
			}
			if proxied.result != direct.result {
				t.Errorf("tools/call through the proxy: %s\nstraight: %s", proxied.result, direct.result)
			}
			out, in, _ := recorded(t, rec)
			if !bytes.Equal(out, proxied.sent) {
				t.Errorf("the recording holds %d bytes host → server, the host wrote %d:\nrecorded: %q\nwritten:  %q", len(out), len(proxied.sent), out, proxied.sent)
			}
			if !bytes.Equal(in, proxied.got) {
				t.Errorf("the recording holds %d bytes server → host, the host read %d:\nrecorded: %q\nread:     %q", len(in), len(proxied.got), in, proxied.got)
			}
		})
	}
}

// TestProxyStdioInspector: the MCP Inspector's CLI, as the host, prints
// through the proxy what it prints straight from the server: tools/list
// and tools/call, against the TypeScript and the Go SDK servers.
func TestProxyStdioInspector(t *testing.T) {
	t.Parallel()
	for _, p := range stdioPeers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			server := p.argv(t)
			for _, args := range [][]string{
				{"--method", "tools/list"},
				{"--method", "tools/call", "--tool-name", p.call.tool, "--tool-arg", p.arg},
			} {
				direct := runInspectorOn(t, server, args...)
				rec := filepath.Join(t.TempDir(), "inspector.jsonl")
				proxied := runInspectorOn(t, proxyArgv(t, "inspector-"+p.name, rec, server), args...)
				if proxied != direct {
					t.Errorf("%s through the proxy:\n%s\nstraight:\n%s", args[1], proxied, direct)
				}
				out, in, _ := recorded(t, rec)
				if !bytes.Contains(out, []byte(`"method":"initialize"`)) || !bytes.Contains(out, []byte(`"method":"`+args[1]+`"`)) || len(in) == 0 {
					t.Errorf("the recording misses the session:\nout: %s\nin: %s", out, in)
				}
			}
		})
	}
}
