package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpscope/mcpscope/client/lint"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// foldedWidth is about how many bytes of subjects a folded line lists.
const foldedWidth = 72

// writeFolded prints the findings of severity s one line a rule, in the
// order the rules first appear: the rule, its count and the subjects it
// concerns, cut to a line ("schema-strict-mode (16): echo, get-sum, …").
func writeFolded(b *strings.Builder, findings []lint.Finding, s lint.Severity) {
	type fold struct {
		count    int
		subjects []string
		width    int
		cut      bool
	}
	var order []string
	folds := map[string]*fold{}
	for _, f := range findings {
		if f.Severity != s {
			continue
		}
		fd := folds[f.Rule]
		if fd == nil {
			fd = &fold{}
			folds[f.Rule] = fd
			order = append(order, f.Rule)
		}
		fd.count++
		if fd.cut {
			continue
		}
		name := f.Name
		if name == "" {
			name = f.Subject
		}
		name = termtext.LineMax(name, nameMax)
		if slices.Contains(fd.subjects, name) {
			continue
		}
		if len(fd.subjects) > 0 && fd.width+len(name) > foldedWidth {
			fd.cut = true
			continue
		}
		fd.subjects = append(fd.subjects, name)
		fd.width += len(name) + 2
	}
	for _, rule := range order {
		fd := folds[rule]
		list := strings.Join(fd.subjects, ", ")
		if fd.cut {
			list += ", …"
		}
		fmt.Fprintf(b, "  %s (%d): %s\n", termtext.OneLine(rule), fd.count, list)
	}
}
