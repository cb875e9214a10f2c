package lint_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/demo"
	demohttp "github.com/mcpscope/mcpscope/demo/http"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	mcphttp "github.com/mcpscope/mcpscope/transports/http"
)

// listOffer connects to url over Streamable HTTP through mcpscope's
// engine and lists everything the server offers, every page.
func listOffer(t *testing.T, url string) lint.Offer {
	t.Helper()
	tr, err := mcphttp.New(mcphttp.Config{URL: url, Mode: mcphttp.ModeStreamable})
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, client.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
	defer cancel()
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer s.Close()
	o := lint.Offer{ProtocolVersion: s.ProtocolVersion(), Transport: "http"}
	for _, l := range []struct {
		method, field string
		into          *[]json.RawMessage
	}{
		{"tools/list", "tools", &o.Tools},
		{"prompts/list", "prompts", &o.Prompts},
		{"resources/list", "resources", &o.Resources},
		{"resources/templates/list", "resourceTemplates", &o.ResourceTemplates},
	} {
		if *l.into, err = s.ListAll(ctx, l.method, l.field, nil); err != nil {
			t.Fatalf("%s: %v", l.method, err)
		}
	}
	return o
}

// serious are the warnings and errors, as "rule subject".
func serious(fs []lint.Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Severity != lint.SeverityInfo {
			out = append(out, f.Rule+" "+f.Subject)
		}
	}
	return out
}

// TestLiveGoSDKConformance lints the Go SDK conformance server as it
// serves a 2026-07-28 client over Streamable HTTP: its one x-mcp-header
// tool is valid, and the only warning is the root allOf of its JSON
// Schema 2020-12 tool.
func TestLiveGoSDKConformance(t *testing.T) {
	t.Parallel()
	o := listOffer(t, peertest.StartGoSDKConformanceHTTP(t, true).URL)
	if o.ProtocolVersion != "2026-07-28" || len(o.Tools) < 20 {
		t.Fatalf("version %q, %d tools", o.ProtocolVersion, len(o.Tools))
	}
	got := serious(lint.Check(o))
	want := []string{`schema-root-composition tool "json_schema_2020_12_tool"`}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
}

// TestLiveDemo lints mcpscope's demo server over Streamable HTTP at
// 2026-07-28: its route_clash tool, whose two x-mcp-header names differ
// only in case, is the error a conforming client drops it for.
func TestLiveDemo(t *testing.T) {
	t.Parallel()
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Close() })
	h := demohttp.New(core, demohttp.Options{})
	srv := httptest.NewServer(h) // 127.0.0.1, a port of its own
	t.Cleanup(srv.Close)
	t.Cleanup(h.Close) // before the server's Close: its streams are the handler's
	fs := lint.Check(listOffer(t, srv.URL+demohttp.PathMCP))
	var errs []string
	for _, f := range fs {
		if f.Severity == lint.SeverityError {
			errs = append(errs, f.Rule+" "+f.Subject)
		}
	}
	if want := []string{`x-mcp-header-invalid tool "route_clash"`}; !slices.Equal(errs, want) {
		t.Errorf("errors:\n got %q\nwant %q\nall: %q", errs, want, serious(fs))
	}
}
