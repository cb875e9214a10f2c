package explore

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// toolDeclared is what a tool's _meta in tools/list says of interactive
// sessions (mcp.MetaInteractiveTool).
type toolDeclared int

const (
	declaredNothing toolDeclared = iota // the tool says nothing
	declaredWizard                      // the tool runs interactive sessions
	declaredPlain                       // the tool is a plain tools/call
)

// declaredOf reads what a tool's _meta declares.
func declaredOf(meta json.RawMessage) toolDeclared {
	interactive, declared := mcp.ToolInteractive(meta)
	switch {
	case !declared:
		return declaredNothing
	case interactive:
		return declaredWizard
	}
	return declaredPlain
}

// listDeclares reports whether some tool of items declares itself
// interactive: the server then marks its wizards, and a tool that says
// nothing is a plain one.
func listDeclares(items []entry) bool {
	for i := range items {
		if items[i].declared == declaredWizard {
			return true
		}
	}
	return false
}

// declaredPlainIn reports whether e is a plain tool by its list's word: it
// says so, or says nothing in a list that marks its wizards.
func (e *entry) declaredPlainIn(declares bool) bool {
	return e.declared == declaredPlain || declares && e.declared == declaredNothing
}
