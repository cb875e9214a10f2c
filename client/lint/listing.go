package lint

import (
	"fmt"
	"net/url"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// required are the string members MCP requires of each kind of entry.
var requiredMembers = [...][]string{
	kindTool:     {"name"},
	kindPrompt:   {"name"},
	kindResource: {"uri", "name"},
	kindTemplate: {"uriTemplate", "name"},
}

// textMembers are optional members that must be strings when present.
var textMembers = []string{"title", "description", "mimeType"}

// checkListing reports entries that are not objects or lack a member MCP
// requires; clients built on the official SDKs refuse a whole listing
// that holds one.
func checkListing(o *offer, r *report) {
	for _, list := range o.entries {
		for _, e := range list {
			if e.obj == nil {
				r.add("listing-malformed", e, e.path, "the entry cannot be read: "+termtext.OneLine(e.err.Error()), "")
				continue
			}
			for _, m := range requiredMembers[e.kind] {
				if s, ok := e.str(m); !ok || s == "" {
					r.add("listing-malformed", e, member(e.path, m), fmt.Sprintf("the %s has no %s string; MCP requires one", noun[e.kind], m), "")
				}
			}
			for _, m := range textMembers {
				if v, present := e.obj[m]; present {
					if _, ok := v.(string); !ok {
						r.add("listing-malformed", e, member(e.path, m), fmt.Sprintf("%s is %s, not a string", m, jsonKind(v)), "")
					}
				}
			}
		}
	}
}

// identity is the member that tells entries of a kind apart.
var identity = [...]string{kindTool: "name", kindPrompt: "name", kindResource: "uri", kindTemplate: "uriTemplate"}

// checkDuplicates reports two entries of a kind with the same identity:
// a client can reach only one of them.
func checkDuplicates(o *offer, r *report) {
	for k, list := range o.entries {
		first := map[string]*entry{}
		for _, e := range list {
			id, ok := e.str(identity[k])
			if !ok || id == "" {
				continue
			}
			if f, dup := first[id]; dup {
				r.add("name-duplicate", e, member(e.path, identity[k]),
					fmt.Sprintf("%s %s is listed twice (first at %s); a client can reach only one of them", identity[k], quote(id), f.path), "")
				continue
			}
			first[id] = e
		}
	}
}

// checkResourceURIs reports resources whose uri is not an absolute URI
// (a scheme, then the rest), which clients pass back in resources/read.
func checkResourceURIs(o *offer, r *report) {
	for _, e := range o.entries[kindResource] {
		s, ok := e.str("uri")
		if !ok || s == "" {
			continue // listing-malformed
		}
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			r.add("resource-uri-invalid", e, member(e.path, "uri"), fmt.Sprintf("the uri %s is not an absolute URI", quote(s)), "")
		}
	}
}
