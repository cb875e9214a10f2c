package schemaform_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// elicited is what the form made of one elicitation/create.
type elicited struct {
	schema json.RawMessage
	form   *schemaform.Form
	err    error // New, or Value
	value  json.RawMessage
	errs   []schemaform.FieldError
}

// formAnswerer answers elicitation/create the way the TUI will: it builds
// the form of the requestedSchema, lets keys fill it, and accepts with its
// value when it validates.
type formAnswerer struct {
	keys func(f *schemaform.Form)
	mu   sync.Mutex
	seen []elicited
}

// HandleServerRequest implements client.ServerRequestHandler.
func (h *formAnswerer) HandleServerRequest(_ context.Context, method string, params json.RawMessage) (any, error) {
	if method != mcp.MethodElicitationCreate {
		return nil, &jsonrpc.Error{Code: mcp.CodeMethodNotFound, Message: "not in this test"}
	}
	var p mcp.ElicitRequestParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	e := elicited{schema: p.RequestedSchema}
	e.form, e.err = schemaform.New(p.RequestedSchema, schemaform.Options{Title: p.Message})
	if e.err == nil {
		h.keys(e.form)
		e.errs = e.form.Validate()
		e.value, e.err = e.form.Value()
	}
	h.mu.Lock()
	h.seen = append(h.seen, e)
	h.mu.Unlock()
	if e.err != nil || len(e.errs) > 0 || e.form.Fallback() != "" {
		return mcp.ElicitResult{Action: mcp.ElicitActionDecline}, nil
	}
	return map[string]any{"action": mcp.ElicitActionAccept, "content": e.value}, nil
}

// TestRealElicitationForms answers the elicitations of real servers with
// forms filled from the keyboard: the flat requestedSchema of each becomes
// a form (never the JSON fallback), defaults are prefilled, the value
// validates, and the server gets exactly that content back.
func TestRealElicitationForms(t *testing.T) {
	cases := []struct {
		name, tool, version string
		argv                []string
		keys                func(f *schemaform.Form)
		want                string   // the content the keys must produce ("" = the defaults)
		echo                []string // what the tool's result must show of it
		golden              string
	}{
		{name: "ts every field kind", tool: "trigger-elicitation-request", argv: peertest.TSEverything(t, "stdio"),
			keys: func(f *schemaform.Form) {
				typeText(f, "Ada Lovelace") // name
				press(t, f, "tab", "space") // check
				for range 8 {               // … to untitledMultipleSelectEnum
					press(t, f, "tab")
				}
				press(t, f, "right", "space")       // + Piano
				press(t, f, "tab", "left", "space") // titledSingleSelectEnum: Wonder Woman
			},
			want: `{"name":"Ada Lovelace","check":true,"firstLine":"It was a dark and stormy night.","integer":42,"number":3.14,` +
				`"untitledSingleSelectEnum":"Monica","untitledMultipleSelectEnum":["Guitar","Piano"],"titledSingleSelectEnum":"hero-3",` +
				`"titledMultipleSelectEnum":["fish-1"],"legacyTitledEnum":"pet-1"}`,
			echo:   []string{"Name: Ada Lovelace", "Agreed to terms: true", `\"Piano\"`, `\"hero-3\"`},
			golden: "elicitation_ts"},
		{name: "go-sdk elicit form", tool: "elicit (form)", version: "2025-11-25", argv: peertest.GoSDKEverything(t),
			keys: func(f *schemaform.Form) { typeText(f, "xyzzy") },
			want: `{"random":"xyzzy"}`, echo: []string{"xyzzy"}},
		{name: "conformance SEP-1034 defaults", tool: "test_elicitation_sep1034_defaults", version: "2025-11-25",
			argv: []string{peertest.GoSDKConformance(t)}, keys: func(*schemaform.Form) {},
			echo: []string{"action=accept", "age:30 name:John Doe score:95.5 status:active verified:true"}},
		{name: "conformance SEP-1330 enums", tool: "test_elicitation_sep1330_enums", version: "2025-11-25",
			argv: []string{peertest.GoSDKConformance(t)},
			keys: func(f *schemaform.Form) {
				press(t, f, "right", "space")                          // legacyEnum: opt2
				press(t, f, "tab", "space", "right", "right", "space") // titledMulti: 1 and 3
				press(t, f, "tab", "right", "space")                   // titledSingle: value2
				press(t, f, "tab", "space", "tab", "space")            // untitled: option1, option1
			},
			want:   `{"legacyEnum":"opt2","titledMulti":["value1","value3"],"titledSingle":"value2","untitledMulti":["option1"],"untitledSingle":"option1"}`,
			golden: "elicitation_sep1330"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := &formAnswerer{keys: c.keys}
			s := client.New(stdio.New(stdio.Config{Command: c.argv[0], Args: c.argv[1:]}),
				client.Options{Handler: h, ProtocolVersion: c.version})
			ctx, cancel := context.WithTimeout(context.Background(), guard.Run) // hang guard only
			defer cancel()
			if err := s.Connect(ctx); err != nil {
				t.Fatalf("Connect: %v", err)
			}
			defer s.Close()
			res, err := s.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": c.tool, "arguments": map[string]any{}})
			var rpc *client.RPCError
			if err != nil && !errors.As(err, &rpc) {
				t.Fatalf("tools/call: %v", err)
			}
			h.mu.Lock()
			defer h.mu.Unlock()
			if len(h.seen) != 1 {
				t.Fatalf("%d elicitations, want 1 (result %s)", len(h.seen), res)
			}
			e := h.seen[0]
			if e.err != nil || e.form.Fallback() != "" || len(e.errs) > 0 {
				t.Fatalf("form: err %v, fallback %q, errors %v", e.err, e.form.Fallback(), e.errs)
			}
			if c.want == "" {
				_, defaults, _ := topLevel(t, e.schema)
				if len(defaults) == 0 {
					t.Fatalf("the schema has no defaults: %s", e.schema)
				}
				checkDefaults(t, c.tool, e.form, defaults)
			} else if string(e.value) != c.want {
				t.Errorf("value  %s\nwant   %s", e.value, c.want)
			}
			for _, w := range c.echo {
				if !strings.Contains(string(res), w) {
					t.Errorf("the result does not show %s: %s", w, res)
				}
			}
			if c.golden != "" {
				golden(t, c.golden, e.form.Render(80, 60))
			}
		})
	}
}
