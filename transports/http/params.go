package mcphttp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// headerParamPrefix starts the header a tool parameter is mirrored into.
const headerParamPrefix = "Mcp-Param-"

// tokenName is RFC 9110's token: what an x-mcp-header name must be.
var tokenName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// paramBinding is one tool parameter the 2026-07-28 revision mirrors into
// an Mcp-Param-{Name} header (the property's x-mcp-header annotation).
type paramBinding struct {
	header string   // the annotation: the header is Mcp-Param-{header}
	path   []string // the property names from the arguments' root
}

// toolHeaders is what the transport learned of one tool's annotations:
// its bindings, or why they are invalid.
type toolHeaders struct {
	bindings []paramBinding
	invalid  error
	refused  bool // a call was refused once; the next one goes out
}

// learnTools reads the x-mcp-header annotations of a 2026-07-28 tools/list
// answer (an earlier revision mirrors no arguments into headers).
func (t *Transport) learnTools(result json.RawMessage) {
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &list) != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.toolHeaders == nil {
		t.toolHeaders = make(map[string]*toolHeaders)
	}
	for _, tool := range list.Tools {
		b, err := scanBindings(tool.InputSchema)
		t.toolHeaders[tool.Name] = &toolHeaders{bindings: b, invalid: err}
	}
}

// instanceKeywords are the JSON Schema keywords whose values are instances,
// not schemas: an "x-mcp-header" member inside them is data.
var instanceKeywords = map[string]bool{"const": true, "default": true, "enum": true, "examples": true}

// scanBindings finds the x-mcp-header annotations of a tool's input
// schema. Only properties reached through "properties" keys count; an
// annotation anywhere else (items, a composition or conditional keyword,
// $defs…), a name that is not an HTTP token, a name used twice
// (case-insensitively) or a property whose type is not string, integer or
// boolean (2026-07-28 rules out number) makes the whole tool's annotations
// invalid.
func scanBindings(schema json.RawMessage) ([]paramBinding, error) {
	var root any
	if len(schema) == 0 || json.Unmarshal(schema, &root) != nil {
		return nil, nil
	}
	var out []paramBinding
	seen := map[string]bool{}
	var walk func(node any, path []string, reachable bool, depth int) error
	walk = func(node any, path []string, reachable bool, depth int) error {
		obj, ok := node.(map[string]any)
		if !ok || depth > 32 {
			return nil
		}
		if raw, ok := obj["x-mcp-header"]; ok {
			name, isString := raw.(string)
			switch typ, _ := obj["type"].(string); {
			case !reachable || len(path) == 0:
				return fmt.Errorf("an x-mcp-header annotation under %q is not reachable through properties", strings.Join(path, "."))
			case !isString || !tokenName.MatchString(name):
				return fmt.Errorf("the x-mcp-header of %q is not an HTTP token: %q", strings.Join(path, "."), raw)
			case seen[strings.ToLower(name)]:
				return fmt.Errorf("the x-mcp-header name %q is used twice", name)
			case typ != "string" && typ != "integer" && typ != "boolean":
				return fmt.Errorf("the x-mcp-header property %q has type %q, not string, integer or boolean", strings.Join(path, "."), typ)
			}
			seen[strings.ToLower(name)] = true
			out = append(out, paramBinding{header: name, path: append([]string(nil), path...)})
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) { // sorted: the same reason every time
			v := obj[k]
			if instanceKeywords[k] {
				continue
			}
			if k == "properties" {
				props, _ := v.(map[string]any)
				for _, name := range slices.Sorted(maps.Keys(props)) {
					if err := walk(props[name], append(path, name), reachable, depth+1); err != nil {
						return err
					}
				}
				continue
			}
			if sub, ok := v.(map[string]any); ok && k != "x-mcp-header" {
				if err := walk(sub, append(path, "("+k+")"), false, depth+1); err != nil {
					return err
				}
			}
			if arr, ok := v.([]any); ok {
				for _, sub := range arr {
					if err := walk(sub, append(path, "("+k+")"), false, depth+1); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	return out, walk(root, nil, true, 0)
}

// InvalidToolHeaders says why the x-mcp-header annotations of the tool
// named tool, as a 2026-07-28 tools/list answer declared them, are
// invalid; nil when they are valid or the tool was not listed
// (Traits.ParamHeaders).
func (t *Transport) InvalidToolHeaders(tool string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if th := t.toolHeaders[tool]; th != nil {
		return th.invalid
	}
	return nil
}

// InsistOnTool lets the calls of the tool named tool go out even when its
// annotations are invalid, without Mcp-Param headers; it holds for a tool
// not listed yet too (Traits.ParamHeaders).
func (t *Transport) InsistOnTool(tool string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.insisted == nil {
		t.insisted = make(map[string]bool)
	}
	t.insisted[tool] = true
}

// setParamHeaders mirrors a modern tools/call's annotated arguments (as
// readModern read them) into Mcp-Param-* headers. A tool whose
// annotations are invalid is refused with a *client.InvalidToolHeadersError,
// unless the user insisted on it (InsistOnTool) or it was refused once
// already: calling it again is insisting. Then it goes out without the
// headers.
func (t *Transport) setParamHeaders(h http.Header, call *modernMeta) error {
	t.mu.Lock()
	th := t.toolHeaders[call.Name]
	insisted := t.insisted[call.Name] || th != nil && th.refused
	if th != nil && th.invalid != nil {
		th.refused = true
	}
	t.mu.Unlock()
	if th == nil {
		return nil
	}
	if th.invalid != nil {
		if !insisted {
			return fmt.Errorf("%w; sending it again insists", &client.InvalidToolHeadersError{Tool: call.Name, Reason: th.invalid})
		}
		return nil
	}
	for _, b := range th.bindings {
		if v, ok := argumentAt(call.Arguments, b.path); ok {
			h.Set(headerParamPrefix+b.header, headerValue(v))
		}
	}
	return nil
}

// argumentAt is the argument at path as header text; ok is false when it
// is absent, null or not a primitive.
func argumentAt(args map[string]any, path []string) (string, bool) {
	var cur any = args
	for _, p := range path {
		obj, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		cur = obj[p]
	}
	switch v := cur.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	return "", false
}

// maxListPages bounds the pages of the tools/list the transport sends on
// its own to learn the tools' annotations.
const maxListPages = 20

// learnToolsFirst lists the server's tools once, on the transport's own
// behalf, before the first modern tools/call of a session that has not
// listed them: a conforming client must mirror the annotated arguments,
// and a headless call knows nothing of the tool. The requests carry ids
// of their own ("mcpscope-tools/list-N") and the _meta of the call, and
// their answers are not delivered; ctx bounds them.
func (t *Transport) learnToolsFirst(ctx context.Context, call *proto.Message) {
	t.mu.Lock()
	known := t.toolHeaders != nil
	if !known {
		t.toolHeaders = make(map[string]*toolHeaders)
	}
	t.mu.Unlock()
	if known {
		return
	}
	var p struct {
		Meta json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(call.Params, &p)
	cursor := ""
	for page := 1; page <= maxListPages; page++ {
		params := map[string]any{"_meta": p.Meta}
		if cursor != "" {
			params["cursor"] = cursor
		}
		req, err := proto.NewRequest(proto.StringID(fmt.Sprintf("mcpscope-tools/list-%d", page)), proto.MethodToolsList, params)
		if err != nil {
			return
		}
		body, err := req.EncodeJSON()
		if err != nil {
			return
		}
		m, err := t.ownCall(ctx, req, body)
		if err != nil {
			return
		}
		var res struct {
			NextCursor string `json:"nextCursor"`
		}
		if m.Error != nil || json.Unmarshal(m.Result, &res) != nil {
			return
		}
		if cursor = res.NextCursor; cursor == "" {
			return
		}
	}
}
