package ui

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// maxHighlight is the largest text coloured; a longer one is shown plain,
// so that selecting a huge message never stalls the UI.
const maxHighlight = 256 << 10

// highlightJSON colours JSON text for a 256-colour terminal in the chroma
// style named style. Text it cannot colour comes back as it was.
func highlightJSON(text, style string) string {
	if len(text) > maxHighlight {
		return text
	}
	lexer := lexers.Get("json")
	formatter := formatters.Get("terminal256")
	if lexer == nil || formatter == nil {
		return text
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, text)
	if err != nil {
		return text
	}
	var b strings.Builder
	if err := formatter.Format(&b, styles.Get(style), it); err != nil {
		return text
	}
	return strings.TrimRight(b.String(), "\n")
}
