package cli

import (
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// serverTextMax is the most bytes of one piece of server text (an error
// message, a progress message, a tool name) that a line on stderr quotes;
// a longer one is cut and says how much was left out.
const serverTextMax = termtext.ServerTextMax

// lineMax is the most bytes of one whole line mcpscope writes on stderr
// (an error sentence, a warning, a trace line): the last guard for text
// that reached a line without passing through oneLine or quote.
const lineMax = termtext.WholeLineMax

// oneLine makes server text safe to print inside a line on stderr: line
// breaks and runs of white space fold to one space, escape sequences and
// other controls are shown escaped (\x1b), and text over serverTextMax bytes
// is shortened.
func oneLine(s string) string { return termtext.OneLine(s) }

// quote renders s between double quotes, safe to print: quotes and
// backslashes are escaped, controls shown escaped, and text over
// serverTextMax bytes shortened.
func quote(s string) string { return termtext.Quote(s) }

// safeLine is the guard every line written on stderr passes: whatever
// server text it still holds is shown escaped and the line is bounded.
func safeLine(s string) string { return termtext.SafeLine(s) }
