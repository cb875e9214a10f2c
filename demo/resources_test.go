package demo

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// resources/templates/list offers the template that names every built-in
// template, and each of its expansions reads that template's source.
func TestResourceTemplatesList(t *testing.T) {
	s := newTestServer(t)
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	c.Handle(request(t, 1, mcp.MethodResourceTemplatesList, nil))
	m := r.response(t, 1)
	var res mcp.ListResourceTemplatesResult
	if m.Error != nil || json.Unmarshal(m.Result, &res) != nil || len(res.ResourceTemplates) != 1 {
		t.Fatalf("resources/templates/list: %+v %s", m.Error, m.Result)
	}
	tmpl := res.ResourceTemplates[0].URITemplate
	for i, bt := range builtinTemplates {
		parts := strings.Split(strings.TrimPrefix(bt.URI, "template://"), "/")
		uri := strings.NewReplacer("{category}", parts[0], "{toolchain}", parts[1], "{variant}", parts[2]).Replace(tmpl)
		id := int64(2 + i)
		c.Handle(request(t, id, mcp.MethodResourcesRead, map[string]any{"uri": uri}))
		if got := r.response(t, id); got.Error != nil || !strings.Contains(string(got.Result), bt.URI) {
			t.Errorf("resources/read %s: %+v %s", uri, got.Error, got.Result)
		}
	}
}

// The template's description names only the expansions that exist, and
// every one of them reads.
func TestResourceTemplateDescriptionNamesReadable(t *testing.T) {
	s := newTestServer(t)
	r := newRecorder()
	c := s.NewConn(r)
	defer c.Close()
	desc := listResourceTemplates().ResourceTemplates[0].Description
	named := regexp.MustCompile(`\b[a-z]+/[a-z]+/[a-z]+\b`).FindAllString(desc, -1)
	if len(named) != len(builtinTemplates) {
		t.Fatalf("description names %d expansions, %d exist: %q", len(named), len(builtinTemplates), desc)
	}
	for i, n := range named {
		id := int64(1 + i)
		c.Handle(request(t, id, mcp.MethodResourcesRead, map[string]any{"uri": "template://" + n}))
		if got := r.response(t, id); got.Error != nil {
			t.Errorf("resources/read template://%s: %+v", n, got.Error)
		}
	}
}
